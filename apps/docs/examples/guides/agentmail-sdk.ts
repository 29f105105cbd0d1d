import { AgentMailClient, AgentMailError } from "agentmail";

// The one change: the addresses. HTTP at the local server's Inbox API,
// WebSockets at its ws: twin; the key is a key of this server.
const baseUrl =
  process.env.PIGEONHOLE_INBOX_BASE_URL ?? "http://127.0.0.1:4010";
const client = new AgentMailClient({
  apiKey:
    process.env.PIGEONHOLE_INBOX_API_KEY ?? "pigeonhole-inbox-dev",
  environment: {
    http: baseUrl,
    websockets: baseUrl.replace(/^http/, "ws"),
  },
});

// Your agent's code, unchanged.
const inbox = await client.inboxes.create({
  username: "sdk-agent",
  displayName: "SDK Agent",
});
await client.inboxes.update(inbox.inboxId, {
  metadata: { team: "support" },
});
const me = await client.auth.me();
console.log(inbox.inboxId, me.scopeType);

// The hosted domains, with the records to publish.
const { domains } = await client.domains.list();
console.log(domains.map((domain) => domain.domainId).join(", "));

// Domains belong to the server's operator: creating one is refused.
try {
  await client.domains.create({
    domain: "partner.example",
    feedbackEnabled: false,
  });
} catch (error) {
  if (!(error instanceof AgentMailError)) {
    throw error;
  }
  console.log(error.statusCode, "domains are managed by the operator");
}
