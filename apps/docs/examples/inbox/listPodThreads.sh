# The conversations of every inbox of your key's pod, newest first.
curl "$PIGEONHOLE_INBOX_BASE_URL/v0/threads?limit=20" \
  -H "Authorization: Bearer $PIGEONHOLE_INBOX_API_KEY"
