# One page, newest first. For the next one, pass the answer's
# `next_page_token` as `page_token`; it is null on the last page.
curl "$PIGEONHOLE_INBOX_BASE_URL/v0/inboxes?limit=20" \
  -H "Authorization: Bearer $PIGEONHOLE_INBOX_API_KEY"
