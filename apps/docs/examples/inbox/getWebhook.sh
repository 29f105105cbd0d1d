curl "$PIGEONHOLE_INBOX_BASE_URL/v0/webhooks/wh_9Kx3Lm7Qp2Rt5Vn8" \
  -H "Authorization: Bearer $PIGEONHOLE_INBOX_API_KEY"
