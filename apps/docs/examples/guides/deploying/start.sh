sudo cp /opt/pigeonhole/node_modules/@pigeonhole/server/deploy/pigeonhole@.service /etc/systemd/system/
sudo systemctl daemon-reload
sudo systemctl enable --now pigeonhole@1 pigeonhole@2
# Each is ready once it has run the migrations and reaches the database: {"status":"ready"}
curl -fsS --retry 30 --retry-connrefused --retry-delay 1 http://127.0.0.1:4011/ready
curl -fsS --retry 30 --retry-connrefused --retry-delay 1 http://127.0.0.1:4012/ready
