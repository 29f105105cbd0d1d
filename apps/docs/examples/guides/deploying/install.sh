sudo useradd --system --no-create-home --shell /usr/sbin/nologin pigeonhole
sudo mkdir -p /opt/pigeonhole && cd /opt/pigeonhole
sudo npm install --save-exact @pigeonhole/server
