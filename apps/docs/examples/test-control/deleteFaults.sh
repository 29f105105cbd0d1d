# Answers 204 with no body.
curl -X DELETE "$PIGEONHOLE_TEST_CONTROL_URL/_test/faults" \
  -H "Authorization: Bearer $PIGEONHOLE_TEST_CONTROL_KEY"
