# One day later (in milliseconds); work that falls due runs at once.
curl -X POST "$PIGEONHOLE_TEST_CONTROL_URL/_test/clock/advance" \
  -H "Authorization: Bearer $PIGEONHOLE_TEST_CONTROL_KEY" \
  -H "Content-Type: application/json" \
  -d '{"ms": 86400000}'
