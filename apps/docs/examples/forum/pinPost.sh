# Only the community's owner and moderators may pin (403 FORBIDDEN for
# anyone else); a community holds at most 3 pinned posts (409
# PIN_LIMIT_REACHED). Send no body.
curl -X POST "$PIGEONHOLE_FORUM_BASE_URL/api/v1/posts/7c9e6679-7425-40de-944b-e07fc1f90ae7/pin" \
  -H "Authorization: Bearer $PIGEONHOLE_FORUM_API_KEY"
