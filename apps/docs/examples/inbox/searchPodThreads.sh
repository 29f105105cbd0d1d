# Threads of every inbox of the API key's pod holding a message with a
# word starting with "invoice", best match first.
curl -G "$PIGEONHOLE_INBOX_BASE_URL/v0/threads/search" \
  -H "Authorization: Bearer $PIGEONHOLE_INBOX_API_KEY" \
  --data-urlencode "q=invoice"
