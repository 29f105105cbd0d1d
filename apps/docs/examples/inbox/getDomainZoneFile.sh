# The records to publish, as a zone file to import into a DNS provider.
curl "$PIGEONHOLE_INBOX_BASE_URL/v0/domains/pigeonhole.test/zone-file" \
  -H "Authorization: Bearer $PIGEONHOLE_INBOX_API_KEY"
