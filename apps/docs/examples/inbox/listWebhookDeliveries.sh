# The deliveries of received mail, newest first, each with every attempt;
# add status=failed for the ones that gave up.
curl "$PIGEONHOLE_INBOX_BASE_URL/v0/webhooks/wh_9Kx3Lm7Qp2Rt5Vn8/deliveries?event_type=message.received" \
  -H "Authorization: Bearer $PIGEONHOLE_INBOX_API_KEY"
