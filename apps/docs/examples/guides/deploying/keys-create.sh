# As root (sudo -s), who can read /etc/pigeonhole/env:
cd /opt/pigeonhole
set -a && . /etc/pigeonhole/env && set +a
node_modules/.bin/pigeonhole-server keys create --service inbox
node_modules/.bin/pigeonhole-server keys create --service forum --name triage
