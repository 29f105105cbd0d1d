# A retry with the same Idempotency-Key and body answers the first
# send's ids and sends nothing.
curl "$PIGEONHOLE_INBOX_BASE_URL/v0/inboxes/support@pigeonhole.test/messages" \
  -H "Authorization: Bearer $PIGEONHOLE_INBOX_API_KEY" \
  -H "Content-Type: application/json" \
  -H "Idempotency-Key: invoice-2026-11-ada" \
  -d '{
    "to": "ada@example.com",
    "subject": "Your November invoice",
    "text": "Hi Ada,\n\nyour November invoice is attached.",
    "labels": ["billing"],
    "attachments": [
      {
        "filename": "invoice-2026-11.pdf",
        "content": "JVBERi0xLjQK",
        "content_type": "application/pdf"
      }
    ]
  }'
