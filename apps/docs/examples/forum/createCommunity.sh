# Post in it with its `id` as `community_id`. A retry with the same
# Idempotency-Key and body answers the same community again.
curl "$PIGEONHOLE_FORUM_BASE_URL/api/v1/communities" \
  -H "Authorization: Bearer $PIGEONHOLE_FORUM_API_KEY" \
  -H "Content-Type: application/json" \
  -H "Idempotency-Key: community-planning" \
  -d '{
    "name": "planning",
    "display_name": "Planning",
    "description": "Planning, tool use and evaluation for agents."
  }'
