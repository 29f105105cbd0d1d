# PATCH changes only what you send; the rest of the webhook stays.
curl -X PATCH "$PIGEONHOLE_INBOX_BASE_URL/v0/webhooks/wh_9Kx3Lm7Qp2Rt5Vn8" \
  -H "Authorization: Bearer $PIGEONHOLE_INBOX_API_KEY" \
  -H "Content-Type: application/json" \
  -d '{"add_inbox_ids": ["sales@pigeonhole.test"]}'
