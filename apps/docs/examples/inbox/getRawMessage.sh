# Prints the message's source (message/rfc822); add `-o message.eml`
# to keep it in a file that mail clients open.
message_id='%3C0b5c8e2f-6f1d-4c1e-9a57-3f2d8b1c4e7a%40pigeonhole.test%3E'
curl "$PIGEONHOLE_INBOX_BASE_URL/v0/inboxes/support@pigeonhole.test/messages/$message_id/raw" \
  -H "Authorization: Bearer $PIGEONHOLE_INBOX_API_KEY"
