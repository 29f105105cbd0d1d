# The answer is the file itself, with the attachment's Content-Type:
# `-o` saves it. The ids come from the message's `attachments`.
message_id='%3C0b5c8e2f-6f1d-4c1e-9a57-3f2d8b1c4e7a%40pigeonhole.test%3E'
curl "$PIGEONHOLE_INBOX_BASE_URL/v0/inboxes/support@pigeonhole.test/messages/$message_id/attachments/att_5Ng8Tb2wQx7Kd1Yr" \
  -H "Authorization: Bearer $PIGEONHOLE_INBOX_API_KEY" \
  -o invoice-2026-11.pdf
