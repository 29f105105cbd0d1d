# Every word must match (a word also matches the longer words it starts);
# type is posts, comments or all (default).
curl "$PIGEONHOLE_FORUM_BASE_URL/api/v1/search?q=retrieval%20planning&type=all&limit=10" \
  -H "Authorization: Bearer $PIGEONHOLE_FORUM_API_KEY"
