# The server's time, whether it stands still, and how far it is ahead.
curl "$PIGEONHOLE_TEST_CONTROL_URL/_test/clock" \
  -H "Authorization: Bearer $PIGEONHOLE_TEST_CONTROL_KEY"
