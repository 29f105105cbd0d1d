# Answers as soon as Ada's inbox holds a matching message (at once if it
# already does), or 404 WAIT_TIMED_OUT after 5 s.
curl "$PIGEONHOLE_TEST_CONTROL_URL/_test/wait/message?inbox_id=ada%40pigeonhole.test&subject=Verify%20your%20address&timeout_ms=5000" \
  -H "Authorization: Bearer $PIGEONHOLE_TEST_CONTROL_KEY"
