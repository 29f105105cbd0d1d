# With a `client_id`, running this again answers the same inbox instead
# of creating a second one.
curl "$PIGEONHOLE_INBOX_BASE_URL/v0/inboxes" \
  -H "Authorization: Bearer $PIGEONHOLE_INBOX_API_KEY" \
  -H "Content-Type: application/json" \
  -d '{
    "username": "support",
    "display_name": "Pigeonhole Support",
    "client_id": "support-inbox-v1"
  }'
