# The drafts of every inbox of the API key, newest first.
curl "$PIGEONHOLE_INBOX_BASE_URL/v0/drafts?limit=10" \
  -H "Authorization: Bearer $PIGEONHOLE_INBOX_API_KEY"
