# A draft by its id alone, whichever inbox of the API key holds it.
curl "$PIGEONHOLE_INBOX_BASE_URL/v0/drafts/drf_3Kq8Zt1Vb6Xn2Lm4" \
  -H "Authorization: Bearer $PIGEONHOLE_INBOX_API_KEY"
