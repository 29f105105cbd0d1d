# Saved now, sent by the server at send_at (once, even with several
# instances). Leave send_at out to keep it until you send it yourself.
curl "$PIGEONHOLE_INBOX_BASE_URL/v0/inboxes/support@pigeonhole.test/drafts" \
  -H "Authorization: Bearer $PIGEONHOLE_INBOX_API_KEY" \
  -H "Content-Type: application/json" \
  -d '{
    "to": ["ada@example.com"],
    "subject": "Your November invoice",
    "text": "Hi Ada,\n\nyour November invoice is attached.",
    "send_at": "2027-06-01T08:00:00.000Z"
  }'
