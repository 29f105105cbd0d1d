# Deletes this inbox's copy for good; its thread follows (or goes, when
# it was the last message). Answers 204.
message_id='%3C0b5c8e2f-6f1d-4c1e-9a57-3f2d8b1c4e7a%40pigeonhole.test%3E'
curl -X DELETE "$PIGEONHOLE_INBOX_BASE_URL/v0/inboxes/support@pigeonhole.test/messages/$message_id" \
  -H "Authorization: Bearer $PIGEONHOLE_INBOX_API_KEY"
