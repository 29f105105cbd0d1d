# An attachment of any message of the thread: the file itself, saved by
# `-o`. (Send `Accept: application/json` for a signed link instead.)
curl "$PIGEONHOLE_INBOX_BASE_URL/v0/inboxes/support@pigeonhole.test/threads/thd_7Hq2mZ4kP9xR3vLc/attachments/att_5Ng8Tb2wQx7Kd1Yr" \
  -H "Authorization: Bearer $PIGEONHOLE_INBOX_API_KEY" \
  -o invoice-2026-11.pdf
