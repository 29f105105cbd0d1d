import { createForumClient } from "@pigeonhole/forum";
import { createInboxClient, type WebhookEvent } from "@pigeonhole/inbox";
import { Webhook } from "standardwebhooks";
import { beforeEach, describe, expect, it } from "vitest";
import type { ServerEvent } from "../shared/wire.ts";
import { createSampleApp, WEBHOOK_PATH } from "./app.ts";
import { EventHub } from "./event-hub.ts";
import { ForumAgents } from "./forum-agents.ts";

const SECRET = `whsec_${Buffer.from("a secret of thirty-two bytes!!!!").toString("base64")}`;
const OTHER_SECRET = `whsec_${Buffer.from("another secret, just as long....").toString("base64")}`;

const event = {
  type: "event",
  event_type: "message.received",
  event_id: "evt_1",
  message: {
    inbox_id: "bob@pigeonhole.test",
    thread_id: "thd_1",
    message_id: "<m1@pigeonhole.test>",
    labels: ["received"],
    timestamp: "2026-11-22T10:00:00.000Z",
    from: "Ada <ada@pigeonhole.test>",
    to: ["bob@pigeonhole.test"],
    cc: [],
    bcc: [],
    reply_to: [],
    subject: "Lunch?",
    preview: "Friday?",
    text: "Friday?",
    html: null,
    attachments: [],
    in_reply_to: null,
    references: [],
    headers: {},
    size: 10,
    created_at: "2026-11-22T10:00:00.000Z",
    updated_at: "2026-11-22T10:00:00.000Z",
  },
  thread: {
    thread_id: "thd_1",
    inbox_id: "bob@pigeonhole.test",
    subject: "Lunch?",
    participants: ["ada@pigeonhole.test", "bob@pigeonhole.test"],
    labels: ["received"],
    message_count: 1,
    last_message_at: "2026-11-22T10:00:00.000Z",
    created_at: "2026-11-22T10:00:00.000Z",
    updated_at: "2026-11-22T10:00:00.000Z",
  },
} satisfies WebhookEvent;

/** A delivery as the Inbox API sends it, signed with `secret` (Standard Webhooks). */
function delivery(body: string, secret: string, id = event.event_id): RequestInit {
  const sentAt = new Date();
  return {
    method: "POST",
    body,
    headers: {
      "content-type": "application/json",
      "webhook-id": id,
      "webhook-timestamp": String(Math.floor(sentAt.getTime() / 1000)),
      "webhook-signature": new Webhook(secret).sign(id, sentAt, body),
    },
  };
}

describe("the webhook endpoint", () => {
  let published: ServerEvent[];
  let secret: string | undefined;
  let app: ReturnType<typeof createSampleApp>;

  beforeEach(() => {
    published = [];
    secret = SECRET;
    const events = new EventHub();
    events.subscribe((serverEvent) => published.push(serverEvent));
    // The clients are never called here; the endpoint only verifies and publishes.
    const inbox = createInboxClient({ apiKey: "unused", baseUrl: "http://127.0.0.1:9" });
    const forum = createForumClient({ apiKey: "unused", baseUrl: "http://127.0.0.1:9" });
    app = createSampleApp({ inbox, agents: new ForumAgents(forum), events, webhookSecret: () => secret });
  });

  it("accepts a correctly signed delivery and pushes the arrival to the pages", async () => {
    const response = await app.request(WEBHOOK_PATH, delivery(JSON.stringify(event), SECRET));
    expect(response.status).toBe(204);
    expect(published).toEqual([
      {
        type: "message.received",
        inboxId: "bob@pigeonhole.test",
        threadId: "thd_1",
        subject: "Lunch?",
        from: "Ada <ada@pigeonhole.test>",
      },
    ]);
  });

  it("rejects a delivery signed with another secret with 400, and pushes nothing", async () => {
    const response = await app.request(WEBHOOK_PATH, delivery(JSON.stringify(event), OTHER_SECRET));
    expect(response.status).toBe(400);
    expect(await response.text()).toBe("invalid_signature");
    expect(published).toEqual([]);
  });

  it("rejects a body changed after signing", async () => {
    const signed = delivery(JSON.stringify(event), SECRET);
    const response = await app.request(WEBHOOK_PATH, { ...signed, body: JSON.stringify({ ...event, event_id: "x" }) });
    expect(response.status).toBe(400);
    expect(published).toEqual([]);
  });

  it("rejects a delivery without signature headers", async () => {
    const response = await app.request(WEBHOOK_PATH, { method: "POST", body: JSON.stringify(event) });
    expect(response.status).toBe(400);
    expect(await response.text()).toBe("missing_header");
    expect(published).toEqual([]);
  });

  it("pushes a repeated delivery of one event once", async () => {
    for (let attempt = 0; attempt < 3; attempt++) {
      const response = await app.request(WEBHOOK_PATH, delivery(JSON.stringify(event), SECRET));
      expect(response.status).toBe(204);
    }
    expect(published).toHaveLength(1);
  });

  it("answers 503 until the webhook is registered, so the Inbox API delivers again later", async () => {
    secret = undefined;
    const response = await app.request(WEBHOOK_PATH, delivery(JSON.stringify(event), SECRET));
    expect(response.status).toBe(503);
    expect(published).toEqual([]);
  });
});
