# Stop time where it stands; send "now" too to jump ahead first, and
# {"frozen": false} to let it run again.
curl -X PUT "$PIGEONHOLE_TEST_CONTROL_URL/_test/clock" \
  -H "Authorization: Bearer $PIGEONHOLE_TEST_CONTROL_KEY" \
  -H "Content-Type: application/json" \
  -d '{"frozen": true}'
