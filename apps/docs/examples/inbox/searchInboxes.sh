# The API key's inboxes whose address or display name has a word
# starting with "sup"; an exact address comes first.
curl -G "$PIGEONHOLE_INBOX_BASE_URL/v0/inboxes/search" \
  -H "Authorization: Bearer $PIGEONHOLE_INBOX_API_KEY" \
  --data-urlencode "q=sup"
