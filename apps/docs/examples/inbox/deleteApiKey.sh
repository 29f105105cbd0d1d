# Answers 204; the key is refused from the next request on.
curl -X DELETE "$PIGEONHOLE_INBOX_BASE_URL/v0/api-keys/key_3f9a0c2e7b1d4a58" \
  -H "Authorization: Bearer $PIGEONHOLE_INBOX_API_KEY"
