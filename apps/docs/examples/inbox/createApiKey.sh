# The answer's api_key is shown this once: store it now.
curl -X POST "$PIGEONHOLE_INBOX_BASE_URL/v0/api-keys" \
  -H "Authorization: Bearer $PIGEONHOLE_INBOX_API_KEY" \
  -H "Content-Type: application/json" \
  -d '{"name": "ci-runner"}'
