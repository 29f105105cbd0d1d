# Counts of the pod's events by type, in hourly periods over the last day
# (add event_types=message.received to count one type).
curl -G "$PIGEONHOLE_INBOX_BASE_URL/v0/metrics/events" \
  -H "Authorization: Bearer $PIGEONHOLE_INBOX_API_KEY" \
  --data-urlencode "period=3600"
