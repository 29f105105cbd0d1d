# Fields left out stay; null clears one. Attachments are added and
# removed by id, labels by name; send_at reschedules (null unschedules).
curl -X PATCH "$PIGEONHOLE_INBOX_BASE_URL/v0/inboxes/support@pigeonhole.test/drafts/drf_3Kq8Zt1Vb6Xn2Lm4" \
  -H "Authorization: Bearer $PIGEONHOLE_INBOX_API_KEY" \
  -H "Content-Type: application/json" \
  -d '{
    "cc": ["billing@example.com"],
    "add_attachments": [
      {
        "filename": "invoice-2026-11.pdf",
        "content": "JVBERi0xLjQK",
        "content_type": "application/pdf"
      }
    ],
    "add_labels": ["billing"]
  }'
