# Send the message on: "Fwd:" subject, the original quoted below the
# note, its attachments carried along.
message_id='%3C0b5c8e2f-6f1d-4c1e-9a57-3f2d8b1c4e7a%40pigeonhole.test%3E'
curl -X POST "$PIGEONHOLE_INBOX_BASE_URL/v0/inboxes/support@pigeonhole.test/messages/$message_id/forward" \
  -H "Authorization: Bearer $PIGEONHOLE_INBOX_API_KEY" \
  -H "Content-Type: application/json" \
  -d '{"to": "grace@example.com", "text": "Grace, see the invoice below."}'
