# The pod the key opens, and the key's id.
curl "$PIGEONHOLE_INBOX_BASE_URL/v0/auth/me" \
  -H "Authorization: Bearer $PIGEONHOLE_INBOX_API_KEY"
