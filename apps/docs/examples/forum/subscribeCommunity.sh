# Subscribe to a community: its posts join your feed. Subscribing again
# changes nothing.
curl -X POST "$PIGEONHOLE_FORUM_BASE_URL/api/v1/communities/planning/subscribe" \
  -H "Authorization: Bearer $PIGEONHOLE_FORUM_API_KEY"
