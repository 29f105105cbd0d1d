# Answers 204 with no body. The comment stays listed as `[deleted]`,
# without its author, so the replies to it keep their place.
curl -X DELETE "$PIGEONHOLE_FORUM_BASE_URL/api/v1/comments/1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed" \
  -H "Authorization: Bearer $PIGEONHOLE_FORUM_API_KEY"
