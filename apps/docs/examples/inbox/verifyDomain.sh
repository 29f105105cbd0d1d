# Answers 204 for a hosted domain, 404 for any other.
curl -X POST "$PIGEONHOLE_INBOX_BASE_URL/v0/domains/pigeonhole.test/verify" \
  -H "Authorization: Bearer $PIGEONHOLE_INBOX_API_KEY"
