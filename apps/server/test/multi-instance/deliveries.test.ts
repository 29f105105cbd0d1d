import { afterEach, describe, expect, it } from "vitest";
import { startWebhookReceiver } from "../support/webhook-receiver.ts";
import type { Instances } from "./instances.ts";
import { bounded, inboxHeaders, roundRobin, startInstances } from "./instances.ts";

// Every instance runs a delivery worker on the one outbox; claims keep two instances off the same delivery.
let instances: Instances | undefined;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>> | undefined;
afterEach(async () => {
  await instances?.stop();
  await receiver?.close();
  instances = undefined;
  receiver = undefined;
});

const idsOf = (deliveries: { headers: Record<string, unknown> }[]) =>
  deliveries.map((delivery) => String(delivery.headers["webhook-id"]));

async function createInboxWithWebhook(url: string, hook: string): Promise<string> {
  const created = await fetch(`${url}/v0/inboxes`, { method: "POST", headers: inboxHeaders(), body: "{}" });
  const { inbox_id } = (await created.json()) as { inbox_id: string };
  const webhook = await fetch(`${url}/v0/webhooks`, {
    method: "POST",
    headers: inboxHeaders(),
    body: JSON.stringify({ url: hook, event_types: ["message.sent"] }),
  });
  expect(webhook.status).toBe(200);
  return inbox_id;
}

/** Sends through the instances in turn and answers the message ids of the sends they acknowledged. */
async function sendMany(all: Instances["all"], inboxId: string, count: number): Promise<string[]> {
  const acknowledged: string[] = [];
  await bounded(count, 6, async (i) => {
    const instance = roundRobin(all, i);
    try {
      const response = await fetch(`${instance.inboxUrl}/v0/inboxes/${encodeURIComponent(inboxId)}/messages`, {
        method: "POST",
        headers: inboxHeaders(),
        body: JSON.stringify({ to: ["out@example.com"], subject: `Message ${i}`, text: "Delivered once." }),
      });
      if (response.ok) {
        acknowledged.push(((await response.json()) as { message_id: string }).message_id);
      }
    } catch {
      // The instance was killed under this request: not acknowledged, so nothing is owed.
    }
  });
  return acknowledged;
}

describe("webhook deliveries over several instances", () => {
  it("reach a receiver that answers 2xx exactly once each", async () => {
    instances = await startInstances(3);
    receiver = await startWebhookReceiver();
    const inboxId = await createInboxWithWebhook(instances.all[0]?.inboxUrl ?? "", receiver.url);
    const sent = await sendMany(instances.all, inboxId, 60);
    expect(sent).toHaveLength(60);
    await receiver.waitFor(60, 20_000);
    // Time for a duplicate to arrive, if one were coming.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const ids = idsOf(receiver.deliveries);
    expect(ids).toHaveLength(60);
    expect(new Set(ids).size).toBe(60);
    const messageIds = receiver.deliveries.map((delivery) => JSON.parse(delivery.body).send.message_id);
    expect(new Set(messageIds)).toEqual(new Set(sent));
  });

  it("lose no acknowledged send and no delivery when one instance is killed mid-load", async () => {
    // Short claims, so that the survivor takes over the killed instance's deliveries within the test.
    instances = await startInstances(2, ["--webhook-claim-ms", "3000"]);
    receiver = await startWebhookReceiver();
    const [victim, survivor] = instances.all;
    if (!victim || !survivor) {
      throw new Error("Two instances were started.");
    }
    const inboxId = await createInboxWithWebhook(survivor.inboxUrl, receiver.url);
    const load = sendMany(instances.all, inboxId, 80);
    await new Promise((resolve) => setTimeout(resolve, 150));
    victim.child.kill("SIGKILL");
    const sent = await load;
    expect(sent.length).toBeGreaterThan(0);

    const stored: string[] = [];
    let token: string | null = null;
    for (let page = 0; page < 10; page++) {
      const query: string = token ? `limit=100&page_token=${encodeURIComponent(token)}` : "limit=100";
      const response = await fetch(`${survivor.inboxUrl}/v0/inboxes/${encodeURIComponent(inboxId)}/messages?${query}`, {
        headers: inboxHeaders(),
      });
      const body = (await response.json()) as { messages: { message_id: string }[]; next_page_token: string | null };
      stored.push(...body.messages.map((message) => message.message_id));
      token = body.next_page_token;
      if (token === null) {
        break;
      }
    }
    for (const id of sent) {
      expect(stored).toContain(id);
    }
    // Every stored message (acknowledged or committed just before the kill) is delivered at least once.
    await receiver.waitFor(stored.length, 20_000);
    const delivered = new Set(receiver.deliveries.map((delivery) => JSON.parse(delivery.body).send.message_id));
    for (const id of stored) {
      expect(delivered).toContain(id);
    }
  });

  it("hand a stopped instance's claimed deliveries to the others at once", async () => {
    // Claims that would hold for a minute: only the hand-back lets the other instance deliver within the test.
    let holding = true;
    const stalled = await startStallingReceiver(() => holding);
    instances = await startInstances(1, ["--webhook-claim-ms", "60000"]);
    const [first] = instances.all;
    if (!first) {
      throw new Error("One instance was started.");
    }
    const inboxId = await createInboxWithWebhook(first.inboxUrl, stalled.url);
    const sent = await sendMany(instances.all, inboxId, 3);
    await stalled.waitForRequests(3);
    const second = await instances.add(["--webhook-claim-ms", "60000"]);
    holding = false;
    const stoppedAt = Date.now();
    first.child.kill("SIGTERM");
    expect((await first.exited).code).toBe(0);
    await stalled.waitForAnswered(3, 15_000);
    expect(Date.now() - stoppedAt).toBeLessThan(15_000);
    expect(new Set(stalled.answeredMessageIds())).toEqual(new Set(sent));
    expect(second.child.exitCode).toBeNull();
    await stalled.close();
  });
});

/** A receiver that leaves requests unanswered while `hold()` is true, and answers 200 otherwise. */
async function startStallingReceiver(hold: () => boolean) {
  const { createServer } = await import("node:http");
  let requests = 0;
  const answered: string[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      requests += 1;
      if (hold()) {
        return;
      }
      answered.push(JSON.parse(Buffer.concat(chunks).toString("utf8")).send.message_id);
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  const until = async (done: () => boolean, timeoutMs: number, what: string) => {
    const deadline = Date.now() + timeoutMs;
    while (!done()) {
      if (Date.now() > deadline) {
        throw new Error(`Timed out waiting for ${what}.`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  return {
    url: `http://127.0.0.1:${port}/hook`,
    waitForRequests: (count: number) => until(() => requests >= count, 10_000, `${count} requests`),
    waitForAnswered: (count: number, timeoutMs: number) =>
      until(() => answered.length >= count, timeoutMs, `${count} answered deliveries`),
    answeredMessageIds: () => answered,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
