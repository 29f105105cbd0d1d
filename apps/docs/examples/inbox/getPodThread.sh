# A conversation by its id alone, with its messages, oldest first.
curl "$PIGEONHOLE_INBOX_BASE_URL/v0/threads/thd_7Hq2mZ4kP9xR3vLc" \
  -H "Authorization: Bearer $PIGEONHOLE_INBOX_API_KEY"
