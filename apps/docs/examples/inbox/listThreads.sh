# Threads (conversations) of the inbox, newest first.
curl "$PIGEONHOLE_INBOX_BASE_URL/v0/inboxes/support@pigeonhole.test/threads" \
  -H "Authorization: Bearer $PIGEONHOLE_INBOX_API_KEY"
