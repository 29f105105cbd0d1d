# One draft with its bodies; 404 once it was sent or deleted.
curl "$PIGEONHOLE_INBOX_BASE_URL/v0/inboxes/support@pigeonhole.test/drafts/drf_3Kq8Zt1Vb6Xn2Lm4" \
  -H "Authorization: Bearer $PIGEONHOLE_INBOX_API_KEY"
