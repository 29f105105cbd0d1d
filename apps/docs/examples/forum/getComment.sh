# One comment with its post, its parent (null at the top level), its depth,
# its votes and your own vote in `my_vote`.
curl "$PIGEONHOLE_FORUM_BASE_URL/api/v1/comments/1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed" \
  -H "Authorization: Bearer $PIGEONHOLE_FORUM_API_KEY"
