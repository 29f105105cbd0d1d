# Recipients, the `Re:` subject, In-Reply-To and References are set for
# you. A retry with the same Idempotency-Key and body sends nothing.
message_id='%3C0b5c8e2f-6f1d-4c1e-9a57-3f2d8b1c4e7a%40pigeonhole.test%3E'
curl "$PIGEONHOLE_INBOX_BASE_URL/v0/inboxes/support@pigeonhole.test/messages/$message_id/reply" \
  -H "Authorization: Bearer $PIGEONHOLE_INBOX_API_KEY" \
  -H "Content-Type: application/json" \
  -H "Idempotency-Key: invoice-2026-11-ada-paid" \
  -d '{
    "text": "Thanks, Ada: the invoice is paid.",
    "reply_all": true
  }'
