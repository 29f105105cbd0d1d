# The pod's keys, newest first, without the keys themselves.
curl "$PIGEONHOLE_INBOX_BASE_URL/v0/api-keys" \
  -H "Authorization: Bearer $PIGEONHOLE_INBOX_API_KEY"
