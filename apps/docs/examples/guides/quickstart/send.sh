curl -H "Authorization: Bearer pigeonhole-inbox-dev" \
  http://127.0.0.1:4010/v0/inboxes/ada@pigeonhole.test/messages \
  --json '{"to": "ada@pigeonhole.test", "subject": "Hello"}'
