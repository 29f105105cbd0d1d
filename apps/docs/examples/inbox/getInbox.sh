# The address goes into the path as it is: `@` needs no encoding there.
curl "$PIGEONHOLE_INBOX_BASE_URL/v0/inboxes/support@pigeonhole.test" \
  -H "Authorization: Bearer $PIGEONHOLE_INBOX_API_KEY"
