# Answers 202 with the delivery, pending again; no body to send.
curl -X POST "$PIGEONHOLE_INBOX_BASE_URL/v0/webhooks/wh_9Kx3Lm7Qp2Rt5Vn8/deliveries/dlv_4Tz8Qw2Er6Ty1Ui3/redeliver" \
  -H "Authorization: Bearer $PIGEONHOLE_INBOX_API_KEY"
