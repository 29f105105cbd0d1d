# Run against your deployment, in its checks: with an API key, test
# control must answer exactly as an unknown path does, 404.
status=$(curl -s -o /dev/null -w "%{http_code}" \
  -H "Authorization: Bearer $PIGEONHOLE_INBOX_API_KEY" \
  "$PIGEONHOLE_INBOX_BASE_URL/_test/clock")
if [ "$status" != "404" ]; then
  echo "test control answers $status: start the server without it" >&2
  exit 1
fi
echo "test control is off"
