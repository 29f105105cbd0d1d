curl -H "Authorization: Bearer pigeonhole-inbox-dev" \
  http://127.0.0.1:4010/v0/inboxes --json '{"username": "ada"}'
