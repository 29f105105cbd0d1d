sudo systemctl daemon-reload
sudo systemctl enable --now pigeonhole@1 pigeonhole@2
# Each answers once it has run the migrations: {"status":"ok"}
curl -fsS --retry 30 --retry-connrefused --retry-delay 1 http://127.0.0.1:4011/health
curl -fsS --retry 30 --retry-connrefused --retry-delay 1 http://127.0.0.1:4012/health
