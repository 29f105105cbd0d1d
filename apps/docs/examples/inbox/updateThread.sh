# Labels every message of the conversation at once.
curl -X PATCH "$PIGEONHOLE_INBOX_BASE_URL/v0/inboxes/support@pigeonhole.test/threads/thd_7Hq2mZ4kP9xR3vLc" \
  -H "Authorization: Bearer $PIGEONHOLE_INBOX_API_KEY" \
  -H "Content-Type: application/json" \
  -d '{"add_labels": ["important"]}'
