curl "$PIGEONHOLE_INBOX_BASE_URL/v0/lists/receive/block?limit=20" \
  -H "Authorization: Bearer $PIGEONHOLE_INBOX_API_KEY"
