# PUT replaces the settings: a field you leave out goes back to its
# default. The secret stays the same.
curl -X PUT "$PIGEONHOLE_INBOX_BASE_URL/v0/webhooks/wh_9Kx3Lm7Qp2Rt5Vn8" \
  -H "Authorization: Bearer $PIGEONHOLE_INBOX_API_KEY" \
  -H "Content-Type: application/json" \
  -d '{
    "url": "https://hooks.example.com/pigeonhole/v2",
    "event_types": ["message.received", "message.sent"],
    "enabled": true
  }'
