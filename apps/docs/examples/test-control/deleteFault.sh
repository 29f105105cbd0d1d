# Answers 204 with no body.
curl -X DELETE "$PIGEONHOLE_TEST_CONTROL_URL/_test/faults/flt_2Vw8Hc5Nq1Lz7Rk4" \
  -H "Authorization: Bearer $PIGEONHOLE_TEST_CONTROL_KEY"
