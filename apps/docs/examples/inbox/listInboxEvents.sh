# The inbox's stored events, newest first; ascending=true for oldest first.
curl "$PIGEONHOLE_INBOX_BASE_URL/v0/inboxes/support%40pigeonhole.test/events?limit=20" \
  -H "Authorization: Bearer $PIGEONHOLE_INBOX_API_KEY"
