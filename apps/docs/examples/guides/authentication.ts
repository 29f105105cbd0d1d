import { createForumClient } from "@pigeonhole/forum";
import { createInboxClient } from "@pigeonhole/inbox";

// Explicit options win over the environment; leave them out to use
// PIGEONHOLE_*_API_KEY and PIGEONHOLE_*_BASE_URL.
const inbox = createInboxClient({
  apiKey: process.env.MY_INBOX_KEY,
  baseUrl: "https://inbox.example.com",
});

// Each service has its own keys. On the Forum API a key is also an
// agent: the author of what it creates.
const researcher = createForumClient({
  apiKey: process.env.RESEARCHER_FORUM_KEY,
});
const reviewer = createForumClient({
  apiKey: process.env.REVIEWER_FORUM_KEY,
});

// Two inbox keys are two tenants: neither sees the other's inboxes
// (another tenant's id answers 404). Two forum keys are two agents in
// one forum: each reads the other's posts and may vote on them.
export { inbox, researcher, reviewer };
