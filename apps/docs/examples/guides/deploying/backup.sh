set -a && . /etc/pigeonhole/env && set +a
pg_dump --format=custom --file=pigeonhole.dump "$PIGEONHOLE_DATABASE_URL"
# Into a new, empty database beside it (the same URL, another name).
sudo -u postgres createdb --owner pigeonhole pigeonhole_restored
pg_restore --no-owner --dbname="${PIGEONHOLE_DATABASE_URL%/*}/pigeonhole_restored" pigeonhole.dump
