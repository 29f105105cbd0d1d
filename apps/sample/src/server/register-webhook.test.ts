import { createInboxClient, type InboxClient } from "@pigeonhole/inbox";
import { type Server, startServer } from "@pigeonhole/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerWebhook, WEBHOOK_CLIENT_ID } from "./register-webhook.ts";

describe("registerWebhook", () => {
  let pigeonhole: Server;
  let inbox: InboxClient;

  beforeAll(async () => {
    pigeonhole = await startServer({ inboxPort: 0, forumPort: 0, database: ":memory:", logger: false });
    inbox = createInboxClient({ baseUrl: pigeonhole.inbox.url, apiKey: pigeonhole.inbox.apiKey });
  });
  afterAll(() => pigeonhole.close());

  it("keeps one webhook across restarts, and points it at the server's current address", async () => {
    const first = await registerWebhook(inbox, "http://127.0.0.1:4200/webhooks/inbox");
    const again = await registerWebhook(inbox, "http://127.0.0.1:4200/webhooks/inbox");
    const moved = await registerWebhook(inbox, "http://127.0.0.1:4201/webhooks/inbox");

    expect(again.webhook_id).toBe(first.webhook_id);
    expect(moved).toMatchObject({
      webhook_id: first.webhook_id,
      url: "http://127.0.0.1:4201/webhooks/inbox",
      client_id: WEBHOOK_CLIENT_ID,
      event_types: ["message.received"],
      secret: first.secret,
    });
    const { webhooks } = await inbox.get("/v0/webhooks");
    expect(webhooks.map((webhook) => webhook.webhook_id)).toEqual([first.webhook_id]);
  });
});
