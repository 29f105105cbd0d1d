import type { WebhookDelivery } from "@pigeonhole/inbox-types";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { recordingLogger } from "../../../test/support/recording-logger.ts";
import { testControlOf } from "../../../test/support/test-control-requests.ts";
import type { InboxClient, TestServer } from "../../../test/support/test-server.ts";
import { expectData, startTestServer } from "../../../test/support/test-server.ts";
import { startWebhookReceiver } from "../../../test/support/webhook-receiver.ts";

// Webhook faults against a real receiver on 127.0.0.1, with the default retry schedule: the clock, not a short
// schedule, brings the retry.

const { logger, lines: logged } = recordingLogger();

let t: TestServer;
let control: ReturnType<typeof testControlOf>;
const receivers: { close(): Promise<void> }[] = [];
beforeAll(async () => {
  t = await startTestServer({ logger });
  control = testControlOf(t.server);
});
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});
afterAll(() => t.server.close());

async function receiver() {
  const started = await startWebhookReceiver();
  receivers.push(started);
  return started;
}

/** A tenant with two inboxes and a webhook for `message.received` on `url`. */
async function tenantWithWebhook(url: string) {
  const client = await t.newInboxTenant();
  const inbox = async (name: string) =>
    expectData(await client.POST("/v0/inboxes", { body: { username: `${name}-${crypto.randomUUID()}` } })).inbox_id;
  const from = await inbox("from");
  const to = await inbox("to");
  const webhook = expectData(await client.POST("/v0/webhooks", { body: { url, event_types: ["message.received"] } }));
  const send = async (subject: string) =>
    expectData(
      await client.POST("/v0/inboxes/{inbox_id}/messages", {
        params: { path: { inbox_id: from } },
        body: { to, subject, text: subject },
      }),
    );
  return { client, webhook, send };
}

async function deliveriesWhen(
  client: InboxClient,
  webhookId: string,
  done: (deliveries: WebhookDelivery[]) => boolean,
) {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const { deliveries } = expectData(
      await client.GET("/v0/webhooks/{webhook_id}/deliveries", { params: { path: { webhook_id: webhookId } } }),
    );
    if (done(deliveries)) {
      return deliveries;
    }
    if (Date.now() > deadline) {
      throw new Error(`The deliveries never got there: ${JSON.stringify(deliveries)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const subjectOf = (body: string) => (JSON.parse(body) as { message: { subject: string } }).message.subject;

describe("webhook faults", () => {
  it("fail: the attempt fails with the status without a request, and the default schedule's retry comes when the clock passes it", async () => {
    const hook = await receiver();
    const { client, webhook, send } = await tenantWithWebhook(hook.url);
    const fault = await control.addFault({
      target: "webhook",
      match: { webhook_id: webhook.webhook_id },
      action: { type: "fail", status: 502 },
    });
    await send("failed once");
    const [failed] = await deliveriesWhen(client, webhook.webhook_id, (all) => all[0]?.attempts.length === 1);
    expect(failed).toMatchObject({
      status: "pending",
      attempts: [{ status_code: 502, error: expect.stringContaining(fault.fault_id) }],
    });
    expect(hook.deliveries).toHaveLength(0);
    // The default schedule waits 5 s before the first retry: advancing the clock past it sends it at once.
    const started = performance.now();
    await control.advance(5_000);
    await hook.waitFor(1, 2_000);
    // Woken by the clock, not found by the worker's 500 ms poll (about 10 ms against about 490 ms without the wake).
    expect(performance.now() - started).toBeLessThan(250);
    const [succeeded] = await deliveriesWhen(client, webhook.webhook_id, (all) => all[0]?.status === "succeeded");
    expect(succeeded?.attempts.map((attempt) => attempt.status_code)).toEqual([502, 200]);
    expect(logged).toContainEqual(
      expect.objectContaining({ msg: "fault applied", fault_id: fault.fault_id, target: "webhook", action: "fail" }),
    );
  });

  it("duplicate: the delivery arrives twice with the same webhook-id", async () => {
    const hook = await receiver();
    const { webhook, send } = await tenantWithWebhook(hook.url);
    await control.addFault({
      target: "webhook",
      match: { webhook_id: webhook.webhook_id, event_type: "message.received" },
      action: { type: "duplicate" },
    });
    await send("twice");
    const [first, second] = await hook.waitFor(2);
    expect(first?.headers["webhook-id"]).toBeDefined();
    expect(second?.headers["webhook-id"]).toBe(first?.headers["webhook-id"]);
    expect(second?.body).toBe(first?.body);
    await send("once");
    await hook.waitFor(3);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(hook.deliveries.map((delivery) => subjectOf(delivery.body))).toEqual(["twice", "twice", "once"]);
  });

  it("hold: the delivery arrives after the next one to the same webhook", async () => {
    const hook = await receiver();
    const { webhook, send } = await tenantWithWebhook(hook.url);
    await control.addFault({ target: "webhook", match: { webhook_id: webhook.webhook_id }, action: { type: "hold" } });
    await send("first");
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(hook.deliveries).toHaveLength(0);
    await send("second");
    await hook.waitFor(2);
    expect(hook.deliveries.map((delivery) => subjectOf(delivery.body))).toEqual(["second", "first"]);
  });
});
