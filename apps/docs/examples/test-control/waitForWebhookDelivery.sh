# The newest delivery of received mail to the webhook, with its
# attempts; add status=succeeded to wait until one got through.
curl "$PIGEONHOLE_TEST_CONTROL_URL/_test/wait/webhook-delivery?webhook_id=wh_9Kx3Lm7Qp2Rt5Vn8&event_type=message.received&timeout_ms=5000" \
  -H "Authorization: Bearer $PIGEONHOLE_TEST_CONTROL_KEY"
