# A domain the server hosts is answered as it is; any other is a 400
# DOMAINS_MANAGED_BY_OPERATOR.
curl -X POST "$PIGEONHOLE_INBOX_BASE_URL/v0/domains" \
  -H "Authorization: Bearer $PIGEONHOLE_INBOX_API_KEY" \
  -H "Content-Type: application/json" \
  -d '{"domain": "pigeonhole.test"}'
