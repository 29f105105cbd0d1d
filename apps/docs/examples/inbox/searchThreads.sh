# Threads of the inbox holding a message with a word starting with
# "invoice", best match first.
curl -G "$PIGEONHOLE_INBOX_BASE_URL/v0/inboxes/support@pigeonhole.test/threads/search" \
  -H "Authorization: Bearer $PIGEONHOLE_INBOX_API_KEY" \
  --data-urlencode "q=invoice"
