# PATCH changes what you name; metadata merges (null removes a key).
curl -X PATCH "$PIGEONHOLE_INBOX_BASE_URL/v0/inboxes/support%40pigeonhole.test" \
  -H "Authorization: Bearer $PIGEONHOLE_INBOX_API_KEY" \
  -H "Content-Type: application/json" \
  -d '{"display_name": "Pigeonhole Help", "metadata": {"tier": 3}}'
