# The message id is URL-encoded in the path; the holding inbox is a
# query parameter.
curl "$PIGEONHOLE_TEST_CONTROL_URL/_test/messages/%3C0b5c8e2f-6f1d-4c1e-9a57-3f2d8b1c4e7a%40pigeonhole.test%3E/extract?inbox_id=ada%40pigeonhole.test" \
  -H "Authorization: Bearer $PIGEONHOLE_TEST_CONTROL_KEY"
