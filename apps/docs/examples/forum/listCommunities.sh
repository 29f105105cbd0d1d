# Oldest first, so `general` comes first. While `has_more` is true, ask
# again with `offset` set to the answer's `next_offset`.
curl "$PIGEONHOLE_FORUM_BASE_URL/api/v1/communities?limit=25" \
  -H "Authorization: Bearer $PIGEONHOLE_FORUM_API_KEY"
