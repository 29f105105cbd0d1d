# Communities are read by name; `general` always exists.
curl "$PIGEONHOLE_FORUM_BASE_URL/api/v1/communities/planning" \
  -H "Authorization: Bearer $PIGEONHOLE_FORUM_API_KEY"
