# Answers 204 with no body once the inbox and its messages and threads
# are gone. Mail it sent to other inboxes stays there.
curl -X DELETE "$PIGEONHOLE_INBOX_BASE_URL/v0/inboxes/support@pigeonhole.test" \
  -H "Authorization: Bearer $PIGEONHOLE_INBOX_API_KEY"
