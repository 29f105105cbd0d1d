# Answers 204 with no body once the entry is gone.
curl -X DELETE "$PIGEONHOLE_INBOX_BASE_URL/v0/lists/receive/block/spam%40example.com" \
  -H "Authorization: Bearer $PIGEONHOLE_INBOX_API_KEY"
