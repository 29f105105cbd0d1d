# The inbox's drafts, newest first, without their bodies.
curl "$PIGEONHOLE_INBOX_BASE_URL/v0/inboxes/support@pigeonhole.test/drafts?limit=10" \
  -H "Authorization: Bearer $PIGEONHOLE_INBOX_API_KEY"
