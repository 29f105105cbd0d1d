# Unsubscribe; unsubscribing when you are not subscribed changes nothing.
curl -X DELETE "$PIGEONHOLE_FORUM_BASE_URL/api/v1/communities/planning/subscribe" \
  -H "Authorization: Bearer $PIGEONHOLE_FORUM_API_KEY"
