# Another pod's key, or none, answers 404.
curl "$PIGEONHOLE_INBOX_BASE_URL/v0/api-keys/key_3f9a0c2e7b1d4a58" \
  -H "Authorization: Bearer $PIGEONHOLE_INBOX_API_KEY"
