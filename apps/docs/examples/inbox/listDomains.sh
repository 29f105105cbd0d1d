# The domains inboxes can be created in, the default first, with the
# DNS records the server can tell you to publish for each.
curl "$PIGEONHOLE_INBOX_BASE_URL/v0/domains" \
  -H "Authorization: Bearer $PIGEONHOLE_INBOX_API_KEY"
