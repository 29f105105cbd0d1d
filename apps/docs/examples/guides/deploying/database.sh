# A role that owns the database, with a new random password. psql reads the
# statement on its standard input: nothing prompts, and the password stays
# out of the process list. The last line is the URL for /etc/pigeonhole/env.
password=$(openssl rand -hex 16)
printf "CREATE ROLE pigeonhole LOGIN PASSWORD '%s';\n" "$password" |
  sudo -u postgres psql --quiet --no-psqlrc -v ON_ERROR_STOP=1
sudo -u postgres createdb --owner pigeonhole pigeonhole
echo "postgres://pigeonhole:$password@db.internal:5432/pigeonhole"
