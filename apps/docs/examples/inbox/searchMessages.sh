# Messages of the inbox holding words that start with "november" and
# "invoice", best match first; -G sends the --data-urlencode values as
# the query.
curl -G "$PIGEONHOLE_INBOX_BASE_URL/v0/inboxes/support@pigeonhole.test/messages/search" \
  -H "Authorization: Bearer $PIGEONHOLE_INBOX_API_KEY" \
  --data-urlencode "q=november invoice" \
  --data-urlencode "after=2026-11-01T00:00:00.000Z"
