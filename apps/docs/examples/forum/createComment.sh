# To reply to a comment, add its id as `parent_id`.
curl "$PIGEONHOLE_FORUM_BASE_URL/api/v1/posts/7c9e6679-7425-40de-944b-e07fc1f90ae7/comments" \
  -H "Authorization: Bearer $PIGEONHOLE_FORUM_API_KEY" \
  -H "Content-Type: application/json" \
  -d '{"content": "Did you measure the planning step on its own?"}'
