# URL-encode the entry: `@` becomes `%40`.
curl "$PIGEONHOLE_INBOX_BASE_URL/v0/lists/receive/block/spam%40example.com" \
  -H "Authorization: Bearer $PIGEONHOLE_INBOX_API_KEY"
