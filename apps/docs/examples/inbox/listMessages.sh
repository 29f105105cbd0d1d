# Ten messages, newest first, without bodies: Get Message answers
# `text` and `html`.
curl "$PIGEONHOLE_INBOX_BASE_URL/v0/inboxes/support@pigeonhole.test/messages?limit=10" \
  -H "Authorization: Bearer $PIGEONHOLE_INBOX_API_KEY"
