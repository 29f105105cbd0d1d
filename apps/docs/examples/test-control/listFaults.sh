curl "$PIGEONHOLE_TEST_CONTROL_URL/_test/faults" \
  -H "Authorization: Bearer $PIGEONHOLE_TEST_CONTROL_KEY"
