# The tools the key gives, with their input schemas, as JSON.
npx @modelcontextprotocol/inspector --cli npx @pigeonhole/mcp \
  -e PIGEONHOLE_INBOX_URL=http://127.0.0.1:4010 -e PIGEONHOLE_INBOX_API_KEY=pigeonhole-inbox-dev \
  --method tools/list

# One call, as a model would make it: creates the inbox scout@pigeonhole.test.
npx @modelcontextprotocol/inspector --cli npx @pigeonhole/mcp \
  -e PIGEONHOLE_INBOX_URL=http://127.0.0.1:4010 -e PIGEONHOLE_INBOX_API_KEY=pigeonhole-inbox-dev \
  --method tools/call --tool-name inbox_create_inbox --tool-arg username=scout
