# AgentMail's path for Send Message: the same body, answer and rules.
curl -X POST "$PIGEONHOLE_INBOX_BASE_URL/v0/inboxes/support@pigeonhole.test/messages/send" \
  -H "Authorization: Bearer $PIGEONHOLE_INBOX_API_KEY" \
  -H "Content-Type: application/json" \
  -H "Idempotency-Key: welcome-ada-2026-11" \
  -d '{
    "to": "ada@example.com",
    "subject": "Welcome",
    "text": "Hi Ada, welcome aboard."
  }'
