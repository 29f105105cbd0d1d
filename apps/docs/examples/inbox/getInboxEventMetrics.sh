# One inbox's events by type, one period per day over the range.
curl -G "$PIGEONHOLE_INBOX_BASE_URL/v0/inboxes/support%40pigeonhole.test/metrics/events" \
  -H "Authorization: Bearer $PIGEONHOLE_INBOX_API_KEY" \
  --data-urlencode "period=86400"
