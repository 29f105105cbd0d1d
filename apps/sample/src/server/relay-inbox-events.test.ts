import { setTimeout as sleep } from "node:timers/promises";
import { AuthenticationError, createInboxClient, type InboxClient } from "@pigeonhole/inbox";
import { type Server, startServer } from "@pigeonhole/server";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ServerEvent } from "../shared/wire.ts";
import { EventHub } from "./event-hub.ts";
import { relayInboxEvents } from "./relay-inbox-events.ts";

describe("relayInboxEvents, over the Inbox API's live event stream", () => {
  let pigeonhole: Server;
  let inbox: InboxClient;
  const stops: AbortController[] = [];

  beforeAll(async () => {
    pigeonhole = await startServer({ inboxPort: 0, forumPort: 0, database: ":memory:", logger: false });
    inbox = createInboxClient({ baseUrl: pigeonhole.inbox.url, apiKey: pigeonhole.inbox.apiKey });
    await inbox.post("/v0/inboxes", { body: { username: "ada" } });
    await inbox.post("/v0/inboxes", { body: { username: "bob" } });
  });
  afterEach(() => {
    for (const stop of stops.splice(0)) {
      stop.abort();
    }
  });
  afterAll(() => pigeonhole?.close());

  const send = (subject: string) =>
    inbox.post("/v0/inboxes/{inbox_id}/messages", {
      params: { path: { inbox_id: "ada@pigeonhole.test" } },
      body: { to: "bob@pigeonhole.test", subject, text: "Friday?" },
    });

  /** Starts the relay, and sends until one arrival comes through: from then on the stream is subscribed. */
  async function startRelay(): Promise<{ published: ServerEvent[]; relay: Promise<void>; stop: AbortController }> {
    const hub = new EventHub();
    const published: ServerEvent[] = [];
    hub.subscribe((event) => published.push(event));
    const stop = new AbortController();
    stops.push(stop);
    const relay = relayInboxEvents(inbox, hub, stop.signal);
    for (let attempt = 0; published.length === 0; attempt++) {
      if (attempt === 50) {
        throw new Error("no arrival was relayed within 50 sends");
      }
      await send(`warm-up ${attempt}`);
      await sleep(200);
    }
    published.length = 0;
    return { published, relay, stop };
  }

  it("publishes each message an inbox receives, once, and nothing for what it sent", async () => {
    const { published } = await startRelay();
    await send("Lunch?");
    const deadline = Date.now() + 10_000;
    while (!published.some((event) => event.type === "message.received" && event.subject === "Lunch?")) {
      expect(Date.now()).toBeLessThan(deadline);
      await sleep(50);
    }
    // Ada's message.sent and any further delivery would land in this time.
    await sleep(500);
    const lunch = published.filter((event) => event.type === "message.received" && event.subject === "Lunch?");
    expect(lunch).toEqual([
      {
        type: "message.received",
        inboxId: "bob@pigeonhole.test",
        threadId: expect.stringMatching(/.+/),
        subject: "Lunch?",
        from: "ada@pigeonhole.test",
      },
    ]);
    expect(
      published.filter((event) => event.type === "message.received" && event.inboxId !== "bob@pigeonhole.test"),
    ).toEqual([]);
  });

  it("ends quietly when stopped", async () => {
    const { relay, stop } = await startRelay();
    stop.abort();
    await expect(relay).resolves.toBeUndefined();
  });

  it("rejects with AuthenticationError when the Inbox API refuses the key", async () => {
    const refused = createInboxClient({ baseUrl: pigeonhole.inbox.url, apiKey: "not-a-key", maxRetries: 0 });
    const stop = new AbortController();
    stops.push(stop);
    await expect(relayInboxEvents(refused, new EventHub(), stop.signal)).rejects.toBeInstanceOf(AuthenticationError);
  });
});
