# Answers 204 with no body once the webhook is gone.
curl -X DELETE "$PIGEONHOLE_INBOX_BASE_URL/v0/webhooks/wh_9Kx3Lm7Qp2Rt5Vn8" \
  -H "Authorization: Bearer $PIGEONHOLE_INBOX_API_KEY"
