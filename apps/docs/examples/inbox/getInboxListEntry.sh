curl "$PIGEONHOLE_INBOX_BASE_URL/v0/inboxes/support%40pigeonhole.test/lists/send/allow/partner.example" \
  -H "Authorization: Bearer $PIGEONHOLE_INBOX_API_KEY"
