# Keep the `secret` of the answer with your receiver: it verifies the
# signature of every delivery.
curl "$PIGEONHOLE_INBOX_BASE_URL/v0/webhooks" \
  -H "Authorization: Bearer $PIGEONHOLE_INBOX_API_KEY" \
  -H "Content-Type: application/json" \
  -d '{
    "url": "https://hooks.example.com/pigeonhole",
    "event_types": ["message.received"],
    "inbox_ids": ["support@pigeonhole.test"],
    "client_id": "support-hook-v1"
  }'
