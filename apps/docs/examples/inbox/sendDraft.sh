# Sends now, as Send Message does, then deletes the draft. The body is
# optional: labels for the sent message beside the draft's.
curl -X POST "$PIGEONHOLE_INBOX_BASE_URL/v0/inboxes/support@pigeonhole.test/drafts/drf_3Kq8Zt1Vb6Xn2Lm4/send" \
  -H "Authorization: Bearer $PIGEONHOLE_INBOX_API_KEY" \
  -H "Content-Type: application/json" \
  -d '{"add_labels": ["invoices"]}'
