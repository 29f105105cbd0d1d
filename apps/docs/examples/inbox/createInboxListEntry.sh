# With an entry in its send allow list, the inbox sends only to addresses of
# partner.example and its subdomains.
curl "$PIGEONHOLE_INBOX_BASE_URL/v0/inboxes/support%40pigeonhole.test/lists/send/allow" \
  -H "Authorization: Bearer $PIGEONHOLE_INBOX_API_KEY" \
  -H "Content-Type: application/json" \
  -d '{"entry": "partner.example"}'
