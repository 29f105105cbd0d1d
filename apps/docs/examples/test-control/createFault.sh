# The next two sends answer 429 with Retry-After: 2; answers 201.
curl -X POST "$PIGEONHOLE_TEST_CONTROL_URL/_test/faults" \
  -H "Authorization: Bearer $PIGEONHOLE_TEST_CONTROL_KEY" \
  -H "Content-Type: application/json" \
  -d '{
    "target": "request",
    "match": {"method": "POST", "path": "/v0/inboxes/*/messages"},
    "times": 2,
    "action": {"type": "respond", "status": 429, "headers": {"Retry-After": "2"}}
  }'
