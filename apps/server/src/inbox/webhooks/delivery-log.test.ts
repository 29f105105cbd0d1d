import type { WebhookDelivery } from "@pigeonhole/inbox-types";
import { createTestControl, type TestControl } from "@pigeonhole/test-control";
import { Webhook as StandardWebhook } from "standardwebhooks";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { InboxClient, TestServer } from "../../../test/support/test-server.ts";
import { expectData, startTestServer } from "../../../test/support/test-server.ts";
import type { ReceivedDelivery } from "../../../test/support/webhook-receiver.ts";
import { startWebhookReceiver } from "../../../test/support/webhook-receiver.ts";
import { DEFAULT_WEBHOOK_RETRY_DELAYS_MS } from "../../options.ts";

// The webhook delivery log: every attempt of every delivery (List Webhook Deliveries) and redelivery, against a real
// receiver on 127.0.0.1. The retry schedule is the default one: each test freezes the server's clock and moves it to
// the retries, so every attempt happens at the exact time its delay says, without waiting for it.

const RETRY_DELAYS_MS = DEFAULT_WEBHOOK_RETRY_DELAYS_MS;

let t: TestServer;
let control: TestControl;
const receivers: { close(): Promise<void> }[] = [];
beforeAll(async () => {
  t = await startTestServer();
  const testControl = t.server.testControl;
  if (!testControl) {
    throw new Error("Test control is off on the test server.");
  }
  control = createTestControl({ baseUrl: t.server.inbox.url, key: testControl.key });
});
beforeEach(async () => {
  await control.clock.set({ frozen: true });
});
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
  await control.clock.set({ frozen: false });
});
afterAll(() => t.server.close());

/** A receiver answering each delivery with the status `respond` picks, closed after the test. */
async function receiver(respond: (delivery: ReceivedDelivery, index: number) => number) {
  const started = await startWebhookReceiver(respond);
  receivers.push(started);
  return started;
}

/** A tenant with two inboxes and a webhook on `url`: mail from one to the other is one `message.received`. */
async function tenantWithWebhook(url: string, eventTypes?: ("message.received" | "message.sent")[]) {
  const client = await t.newInboxTenant();
  const inbox = async (username: string) =>
    expectData(await client.POST("/v0/inboxes", { body: { username: `${username}-${crypto.randomUUID()}` } })).inbox_id;
  const from = await inbox("from");
  const to = await inbox("to");
  const webhook = expectData(
    await client.POST("/v0/webhooks", { body: eventTypes ? { url, event_types: eventTypes } : { url } }),
  );
  const send = async (subject = "hello") =>
    expectData(
      await client.POST("/v0/inboxes/{inbox_id}/messages", {
        params: { path: { inbox_id: from } },
        body: { to, subject, text: subject },
      }),
    );
  return { client, webhook, send };
}

const list = async (
  client: InboxClient,
  webhookId: string,
  query: { status?: WebhookDelivery["status"]; event_type?: "message.received" | "message.sent" } & {
    limit?: number;
    page_token?: string;
  } = {},
) =>
  expectData(
    await client.GET("/v0/webhooks/{webhook_id}/deliveries", { params: { path: { webhook_id: webhookId }, query } }),
  );

/**
 * The webhook's deliveries once `done` holds for them, read once more then: a read may see an attempt before the
 * delivery it belongs to shows its outcome, and the read after it sees both. Fails after 5 s.
 */
async function deliveriesWhen(
  client: InboxClient,
  webhookId: string,
  done: (deliveries: WebhookDelivery[]) => boolean,
): Promise<WebhookDelivery[]> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const { deliveries } = await list(client, webhookId, { limit: 100 });
    if (done(deliveries)) {
      return (await list(client, webhookId, { limit: 100 })).deliveries;
    }
    if (Date.now() > deadline) {
      throw new Error(`The deliveries never got there: ${JSON.stringify(deliveries)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const redeliver = (client: InboxClient, webhookId: string, deliveryId: string) =>
  client.POST("/v0/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver", {
    params: { path: { webhook_id: webhookId, delivery_id: deliveryId } },
  });

const finished = (count: number, status: WebhookDelivery["status"]) => (deliveries: WebhookDelivery[]) =>
  deliveries.length === count && deliveries.every((delivery) => delivery.status === status);

/** The server's time, frozen by the test, in milliseconds. */
const serverNow = async () => Date.parse((await control.clock.get()).now);

/**
 * Moves the frozen clock through the whole retry schedule, each retry once the `count` deliveries not succeeded have
 * made the attempt before it and show it due exactly its delay later; resolves with the deliveries once they failed.
 */
async function failThroughSchedule(client: InboxClient, webhookId: string, count: number) {
  for (const [retry, delay] of RETRY_DELAYS_MS.entries()) {
    const deliveries = await deliveriesWhen(client, webhookId, (deliveries) => {
      const failing = deliveries.filter((delivery) => delivery.status !== "succeeded");
      return failing.length === count && failing.every((delivery) => delivery.attempts.length === retry + 1);
    });
    for (const pending of deliveries.filter((delivery) => delivery.status !== "succeeded")) {
      expect(pending.status).toBe("pending");
      const last = Date.parse(pending.attempts.at(-1)?.attempted_at ?? "");
      expect(Date.parse(pending.next_attempt_at ?? ""), `retry ${retry + 1}`).toBe(last + delay);
    }
    await control.clock.advance(delay);
  }
  return deliveriesWhen(
    client,
    webhookId,
    (deliveries) => deliveries.filter((delivery) => delivery.status === "failed").length === count,
  );
}

/**
 * Checks a received delivery's signature with the Standard Webhooks library, as a receiver would, and a receiver's
 * clock agrees with the server's: the library's own, which refuses a timestamp more than 5 minutes from it, reads
 * the server's time meanwhile (hours ahead of this machine's once a test has moved it).
 */
async function verify(secret: string, delivery: ReceivedDelivery) {
  vi.useFakeTimers({ toFake: ["Date"], now: await serverNow() });
  try {
    return new StandardWebhook(secret.slice("whsec_".length)).verify(delivery.body, {
      "webhook-id": String(delivery.headers["webhook-id"]),
      "webhook-timestamp": String(delivery.headers["webhook-timestamp"]),
      "webhook-signature": String(delivery.headers["webhook-signature"]),
    });
  } finally {
    vi.useRealTimers();
  }
}

describe("the attempts of a delivery", () => {
  it("records each attempt: a 500, then the 200 that succeeds", async () => {
    const hook = await receiver((_, index) => (index === 0 ? 500 : 200));
    const { client, webhook, send } = await tenantWithWebhook(hook.url, ["message.received"]);
    const frozenAt = await serverNow();
    await send();
    await deliveriesWhen(client, webhook.webhook_id, ([only]) => only?.attempts.length === 1);
    // One millisecond before the first delay has passed, the retry is not yet due.
    await control.clock.advance((RETRY_DELAYS_MS[0] ?? 0) - 1);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(hook.deliveries).toHaveLength(1);
    await control.clock.advance(1);
    const [delivery] = await deliveriesWhen(client, webhook.webhook_id, finished(1, "succeeded"));
    expect(hook.deliveries).toHaveLength(2);
    expect(delivery).toMatchObject({
      delivery_id: expect.stringMatching(/^dlv_[A-Za-z0-9]{16}$/),
      webhook_id: webhook.webhook_id,
      event_id: hook.deliveries[0]?.headers["webhook-id"],
      event_type: "message.received",
      status: "succeeded",
      next_attempt_at: null,
      attempts: [
        { status_code: 500, error: "The receiver answered 500." },
        { status_code: 200, error: null },
      ],
    });
    const [first, second] = delivery?.attempts ?? [];
    expect(Date.parse(first?.attempted_at ?? "")).toBe(frozenAt);
    // The retry waited the first delay of the schedule, exactly.
    expect(Date.parse(second?.attempted_at ?? "")).toBe(frozenAt + (RETRY_DELAYS_MS[0] ?? 0));
    for (const attempt of delivery?.attempts ?? []) {
      expect(attempt.latency_ms).toBeGreaterThanOrEqual(0);
      expect(attempt.latency_ms).toBeLessThan(5000);
    }
    expect(Date.parse(delivery?.updated_at ?? "")).toBe(Date.parse(second?.attempted_at ?? ""));
  });

  it("fails after the retry schedule, with one attempt more than the schedule has delays", async () => {
    const hook = await receiver(() => 503);
    const { client, webhook, send } = await tenantWithWebhook(hook.url, ["message.received"]);
    const frozenAt = await serverNow();
    await send();
    const [delivery] = await failThroughSchedule(client, webhook.webhook_id, 1);
    expect(delivery?.attempts).toHaveLength(RETRY_DELAYS_MS.length + 1);
    expect(delivery?.attempts.map((attempt) => attempt.status_code)).toEqual(
      Array.from({ length: RETRY_DELAYS_MS.length + 1 }, () => 503),
    );
    // Each retry came when the delay after the attempt before it had passed.
    const waited = RETRY_DELAYS_MS.map((_, retry) => RETRY_DELAYS_MS.slice(0, retry + 1).reduce((a, b) => a + b, 0));
    expect(delivery?.attempts.map((attempt) => Date.parse(attempt.attempted_at) - frozenAt)).toEqual([0, ...waited]);
    expect(delivery?.next_attempt_at).toBeNull();
    expect(hook.deliveries).toHaveLength(RETRY_DELAYS_MS.length + 1);
  });

  it("records an attempt that got no answer with a null status and the reason", async () => {
    const hook = await receiver(() => 200);
    await hook.close();
    const { client, webhook, send } = await tenantWithWebhook(hook.url, ["message.received"]);
    await send();
    const [delivery] = await failThroughSchedule(client, webhook.webhook_id, 1);
    expect(delivery?.attempts).toHaveLength(RETRY_DELAYS_MS.length + 1);
    for (const attempt of delivery?.attempts ?? []) {
      expect(attempt.status_code).toBeNull();
      expect(attempt.error).toMatch(/ECONNREFUSED/);
    }
  });

  it("shows a pending delivery's next attempt", async () => {
    const hook = await receiver(() => 503);
    const { client, webhook, send } = await tenantWithWebhook(hook.url, ["message.received"]);
    await send();
    const [delivery] = await deliveriesWhen(
      client,
      webhook.webhook_id,
      ([only]) => only?.status === "pending" && only.attempts.length === 1,
    );
    const attempted = Date.parse(delivery?.attempts[0]?.attempted_at ?? "");
    expect(Date.parse(delivery?.next_attempt_at ?? "")).toBe(attempted + (RETRY_DELAYS_MS[0] ?? 0));
    // Deleted, so that no later move of the clock sends its retry to a port another test may hold by then.
    await client.DELETE("/v0/webhooks/{webhook_id}", { params: { path: { webhook_id: webhook.webhook_id } } });
  });
});

describe("redelivery", () => {
  it("sends a failed delivery again now, with the same id, body and a valid new signature", async () => {
    let answer = 503;
    const hook = await receiver(() => answer);
    const { client, webhook, send } = await tenantWithWebhook(hook.url, ["message.received"]);
    await send();
    const [failed] = await failThroughSchedule(client, webhook.webhook_id, 1);
    const attemptsBefore = failed?.attempts.length ?? 0;
    answer = 204;

    const queued = await redeliver(client, webhook.webhook_id, failed?.delivery_id ?? "");
    expect(queued.response.status).toBe(202);
    expect(queued.data).toMatchObject({ delivery_id: failed?.delivery_id, status: "pending" });
    // Due now: the clock stands still, so now is exactly the server's time.
    expect(Date.parse(queued.data?.next_attempt_at ?? "")).toBe(await serverNow());

    const [again] = await deliveriesWhen(client, webhook.webhook_id, finished(1, "succeeded"));
    expect(again?.attempts).toHaveLength(attemptsBefore + 1);
    expect(again?.attempts.at(-1)).toMatchObject({ status_code: 204, error: null });
    const original = hook.deliveries[0];
    const redelivered = hook.deliveries.at(-1);
    if (!original || !redelivered) {
      throw new Error("No deliveries arrived.");
    }
    expect(redelivered.headers["webhook-id"]).toBe(failed?.event_id);
    expect(redelivered.headers["svix-id"]).toBe(failed?.event_id);
    expect(redelivered.body).toBe(original.body);
    expect(await verify(webhook.secret, redelivered)).toMatchObject({ event_id: failed?.event_id });
  });

  it("sends a succeeded delivery once more, and it stays succeeded", async () => {
    const hook = await receiver(() => 200);
    const { client, webhook, send } = await tenantWithWebhook(hook.url, ["message.received"]);
    await send();
    const [succeeded] = await deliveriesWhen(client, webhook.webhook_id, finished(1, "succeeded"));
    expect((await redeliver(client, webhook.webhook_id, succeeded?.delivery_id ?? "")).response.status).toBe(202);
    const [again] = await deliveriesWhen(
      client,
      webhook.webhook_id,
      ([only]) => only?.status === "succeeded" && only.attempts.length === 2,
    );
    expect(again?.delivery_id).toBe(succeeded?.delivery_id);
    expect(hook.deliveries).toHaveLength(2);
    const [first, second] = hook.deliveries;
    expect(second?.headers["webhook-id"]).toBe(first?.headers["webhook-id"]);
    expect(second?.body).toBe(first?.body);
    if (second) {
      expect(await verify(webhook.secret, second)).toMatchObject({ event_id: succeeded?.event_id });
    }
  });
});

describe("listing", () => {
  it("pages newest first with stable tokens while deliveries are added", async () => {
    const hook = await receiver(() => 200);
    const { client, webhook, send } = await tenantWithWebhook(hook.url, ["message.sent"]);
    for (let i = 0; i < 5; i++) {
      await send(`first ${i}`);
    }
    const all = (await list(client, webhook.webhook_id, { limit: 100 })).deliveries.map((d) => d.delivery_id);
    expect(all).toHaveLength(5);

    const seen: string[] = [];
    let page = await list(client, webhook.webhook_id, { limit: 2 });
    expect(page).toMatchObject({ count: 2, limit: 2 });
    seen.push(...page.deliveries.map((d) => d.delivery_id));
    // Deliveries queued while paging come on a new first page, never on the pages still to read.
    await send("later 1");
    await send("later 2");
    while (page.next_page_token !== null) {
      page = await list(client, webhook.webhook_id, { limit: 2, page_token: page.next_page_token });
      seen.push(...page.deliveries.map((d) => d.delivery_id));
    }
    expect(seen).toEqual(all);
    const newest = await list(client, webhook.webhook_id, { limit: 2 });
    expect(newest.deliveries.map((d) => d.delivery_id)).not.toContain(all[0]);
    expect(newest.next_page_token).not.toBeNull();

    // A token is bound to its webhook's log: another webhook refuses it.
    const other = expectData(await client.POST("/v0/webhooks", { body: { url: hook.url } }));
    const elsewhere = await client.GET("/v0/webhooks/{webhook_id}/deliveries", {
      params: { path: { webhook_id: other.webhook_id }, query: { page_token: newest.next_page_token ?? "" } },
    });
    expect(elsewhere.response.status).toBe(400);
    expect(elsewhere.error?.error.details).toEqual({ field: "page_token", code: "INVALID_PAGE_TOKEN" });
  });

  it("filters by status and by event type", async () => {
    let answer = 200;
    const hook = await receiver(() => answer);
    const { client, webhook, send } = await tenantWithWebhook(hook.url);
    await send("ok");
    await deliveriesWhen(client, webhook.webhook_id, finished(2, "succeeded"));
    answer = 503;
    await send("broken");
    await failThroughSchedule(client, webhook.webhook_id, 2);

    const types = (deliveries: WebhookDelivery[]) => deliveries.map((d) => d.event_type).sort();
    const succeeded = (await list(client, webhook.webhook_id, { status: "succeeded" })).deliveries;
    expect(types(succeeded)).toEqual(["message.received", "message.sent"]);
    const failed = (await list(client, webhook.webhook_id, { status: "failed" })).deliveries;
    expect(types(failed)).toEqual(["message.received", "message.sent"]);
    expect((await list(client, webhook.webhook_id, { status: "pending" })).deliveries).toEqual([]);
    const received = (await list(client, webhook.webhook_id, { event_type: "message.received" })).deliveries;
    expect(received.map((d) => d.status).sort()).toEqual(["failed", "succeeded"]);
    const failedSent = await list(client, webhook.webhook_id, { status: "failed", event_type: "message.sent" });
    expect(failedSent.deliveries.map((d) => [d.event_type, d.status])).toEqual([["message.sent", "failed"]]);
  });

  it("lists a delivery whose retry fell due while the webhook was disabled as failed, with no further attempt", async () => {
    const hook = await receiver(() => 503);
    const { client, webhook, send } = await tenantWithWebhook(hook.url, ["message.received"]);
    await send();
    await deliveriesWhen(client, webhook.webhook_id, ([only]) => only?.attempts.length === 1);
    await client.PUT("/v0/webhooks/{webhook_id}", {
      params: { path: { webhook_id: webhook.webhook_id } },
      body: { url: hook.url, event_types: ["message.received"], enabled: false },
    });
    expect((await list(client, webhook.webhook_id)).deliveries[0]?.status).toBe("pending");
    await control.clock.advance(RETRY_DELAYS_MS[0] ?? 0);
    const [delivery] = await deliveriesWhen(client, webhook.webhook_id, finished(1, "failed"));
    expect(delivery?.attempts).toHaveLength(1);
    expect(hook.deliveries).toHaveLength(1);
  });
});

describe("what is not the caller's, and bad input", () => {
  it("answers 404 for another API key's webhook and delivery, and a delivery of another webhook", async () => {
    const hook = await receiver(() => 200);
    const owner = await tenantWithWebhook(hook.url, ["message.received"]);
    await owner.send();
    const [delivery] = await deliveriesWhen(owner.client, owner.webhook.webhook_id, finished(1, "succeeded"));
    const deliveryId = delivery?.delivery_id ?? "";
    const stranger = await t.newInboxTenant();

    const strangerList = await stranger.GET("/v0/webhooks/{webhook_id}/deliveries", {
      params: { path: { webhook_id: owner.webhook.webhook_id } },
    });
    expect(strangerList.response.status).toBe(404);
    expect(strangerList.error?.error.details).toEqual({ field: "webhook_id", code: "NOT_FOUND" });
    const strangerRedeliver = await redeliver(stranger, owner.webhook.webhook_id, deliveryId);
    expect(strangerRedeliver.response.status).toBe(404);

    const other = expectData(await owner.client.POST("/v0/webhooks", { body: { url: hook.url } }));
    const wrongWebhook = await redeliver(owner.client, other.webhook_id, deliveryId);
    expect(wrongWebhook.response.status).toBe(404);
    expect(wrongWebhook.error?.error.details).toEqual({ field: "delivery_id", code: "NOT_FOUND" });
    expect((await redeliver(owner.client, owner.webhook.webhook_id, "dlv_nothing")).response.status).toBe(404);
    // Nothing was sent again by any of them.
    expect(hook.deliveries).toHaveLength(1);
  });

  it("refuses an unknown status or event type, a limit out of range and a page token it did not issue", async () => {
    const { client, webhook } = await tenantWithWebhook("http://127.0.0.1:9/none", ["message.received"]);
    const details = async (query: Record<string, string>) => {
      const answer = await client.GET("/v0/webhooks/{webhook_id}/deliveries", {
        params: { path: { webhook_id: webhook.webhook_id }, query: query as never },
      });
      expect(answer.response.status, JSON.stringify(query)).toBe(400);
      return answer.error?.error.details;
    };
    expect(await details({ status: "delivered" })).toEqual({ field: "status", code: "INVALID_VALUE" });
    expect(await details({ event_type: "message.exploded" })).toEqual({ field: "event_type", code: "INVALID_VALUE" });
    expect(await details({ limit: "0" })).toEqual({ field: "limit", code: "INVALID_VALUE" });
    expect(await details({ limit: "101" })).toEqual({ field: "limit", code: "INVALID_VALUE" });
    expect(await details({ page_token: "not-a-token" })).toEqual({ field: "page_token", code: "INVALID_PAGE_TOKEN" });
  });
});
