curl "$PIGEONHOLE_INBOX_BASE_URL/v0/webhooks" \
  -H "Authorization: Bearer $PIGEONHOLE_INBOX_API_KEY"
