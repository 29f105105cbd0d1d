cd /var/lib/pigeonhole
sudo -u pigeonhole sqlite3 pigeonhole.db ".backup pigeonhole-backup.db"
