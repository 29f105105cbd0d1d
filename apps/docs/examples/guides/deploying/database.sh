# A role that owns the database; createuser asks for its password.
sudo -u postgres createuser --pwprompt pigeonhole
sudo -u postgres createdb --owner pigeonhole pigeonhole
