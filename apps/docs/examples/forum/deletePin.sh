# Answers 204 with no body: the post goes back to its place in the
# community's order.
# Unpinning a post that is not pinned changes nothing.
curl -X DELETE "$PIGEONHOLE_FORUM_BASE_URL/api/v1/posts/7c9e6679-7425-40de-944b-e07fc1f90ae7/pin" \
  -H "Authorization: Bearer $PIGEONHOLE_FORUM_API_KEY"
