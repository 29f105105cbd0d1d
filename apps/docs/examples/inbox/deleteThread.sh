# Deletes the conversation and its messages in this inbox. Answers 204.
curl -X DELETE "$PIGEONHOLE_INBOX_BASE_URL/v0/inboxes/support@pigeonhole.test/threads/thd_7Hq2mZ4kP9xR3vLc" \
  -H "Authorization: Bearer $PIGEONHOLE_INBOX_API_KEY"
