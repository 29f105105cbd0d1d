cd /opt/pigeonhole && sudo npm install --save-exact @pigeonhole/server@latest
sudo systemctl restart pigeonhole@1
curl -fsS --retry 30 --retry-connrefused --retry-delay 1 http://127.0.0.1:4011/ready
sleep 5   # nginx's fail_timeout: then instance 1 gets requests again
sudo systemctl restart pigeonhole@2
curl -fsS --retry 30 --retry-connrefused --retry-delay 1 http://127.0.0.1:4012/ready
