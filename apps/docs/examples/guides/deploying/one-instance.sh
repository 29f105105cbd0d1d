# The server's folder, where its SQLite file lives.
sudo install -d -o pigeonhole -g pigeonhole -m 700 /var/lib/pigeonhole
cd /var/lib/pigeonhole
# A key for the first pod: printed once, stored hashed.
sudo -u pigeonhole /opt/pigeonhole/node_modules/.bin/pigeonhole-server keys create --service inbox --create-db
# Every interface, so no development keys and no test control.
sudo -u pigeonhole /opt/pigeonhole/node_modules/.bin/pigeonhole-server --host 0.0.0.0 --no-dev-keys --domain example.com
