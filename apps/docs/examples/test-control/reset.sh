# Wipes one key's data; send no body to wipe everything. Answers 204.
curl -X POST "$PIGEONHOLE_TEST_CONTROL_URL/_test/reset" \
  -H "Authorization: Bearer $PIGEONHOLE_TEST_CONTROL_KEY" \
  -H "Content-Type: application/json" \
  -d "{\"api_key\": \"$PIGEONHOLE_INBOX_API_KEY\"}"
