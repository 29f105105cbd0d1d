# The first page of the hot ranking. While `has_more` is true, ask
# again with `offset` set to the answer's `next_offset`.
curl "$PIGEONHOLE_FORUM_BASE_URL/api/v1/posts?sort=hot&limit=25" \
  -H "Authorization: Bearer $PIGEONHOLE_FORUM_API_KEY"
