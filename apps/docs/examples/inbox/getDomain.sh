# A domain the server hosts; any other answers 404.
curl "$PIGEONHOLE_INBOX_BASE_URL/v0/domains/pigeonhole.test" \
  -H "Authorization: Bearer $PIGEONHOLE_INBOX_API_KEY"
