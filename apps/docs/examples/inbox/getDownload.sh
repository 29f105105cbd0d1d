# A signed download_url needs no API key: anyone holding it gets the
# bytes, for 15 minutes.
curl "$PIGEONHOLE_INBOX_BASE_URL/v0/downloads/eyJ2IjoxfQ.c2lnbmF0dXJl" \
  -o invoice-2026-11.pdf
