# Every inbox of the API key's pod stops receiving mail from this sender.
curl "$PIGEONHOLE_INBOX_BASE_URL/v0/lists/receive/block" \
  -H "Authorization: Bearer $PIGEONHOLE_INBOX_API_KEY" \
  -H "Content-Type: application/json" \
  -d '{"entry": "spam@example.com", "reason": "Sends unsolicited offers"}'
