import type { WaitForWebhookDeliveryResponse } from "@pigeonhole/test-control-types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Query } from "../../../test/support/test-control-requests.ts";
import { testControlOf } from "../../../test/support/test-control-requests.ts";
import type { TestServer } from "../../../test/support/test-server.ts";
import { expectData, startTestServer } from "../../../test/support/test-server.ts";
import { startWebhookReceiver } from "../../../test/support/webhook-receiver.ts";

// Wait For Webhook Delivery on the real server: queuing a delivery and recording each attempt wake the waits.

let t: TestServer;
let control: ReturnType<typeof testControlOf>;
beforeAll(async () => {
  t = await startTestServer({ webhookRetryDelaysMs: [200, 200] });
  control = testControlOf(t.server);
});
afterAll(async () => {
  await t?.server.close();
});

let unique = 0;
const uniqueName = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++unique}`;

async function newInbox(username: string) {
  return expectData(await t.inbox.POST("/v0/inboxes", { body: { username } })).inbox_id;
}

const waitForDelivery = (query: Query) => control.get<WaitForWebhookDeliveryResponse>("/wait/webhook-delivery", query);

/**
 * Gives a wait just sent time to make its first look and park. Should it still be looking when the delivery is
 * recorded, that look finds it and the answer only comes sooner: the checks below never pass by it.
 */
const parked = () => new Promise((resolve) => setTimeout(resolve, 100));

describe("waiting for a webhook delivery", () => {
  it("answers once the delivery succeeded, by webhook, event type and status", async () => {
    const receiver = await startWebhookReceiver();
    try {
      const from = await newInbox(uniqueName("hook-from"));
      const to = await newInbox(uniqueName("hook-to"));
      const webhook = expectData(
        await t.inbox.POST("/v0/webhooks", {
          body: { url: receiver.url, event_types: ["message.received"], inbox_ids: [to] },
        }),
      );
      const waiting = waitForDelivery({
        webhook_id: webhook.webhook_id,
        event_type: "message.received",
        status: "succeeded",
        timeout_ms: 10_000,
      });
      await parked();
      expectData(
        await t.inbox.POST("/v0/inboxes/{inbox_id}/messages", {
          params: { path: { inbox_id: from } },
          body: { to, subject: "Hello", text: "Hi" },
        }),
      );
      const answer = await waiting;
      const [received] = await receiver.waitFor(1);
      expect(answer.status).toBe(200);
      const { delivery } = answer.body;
      expect(delivery).toMatchObject({
        webhook_id: webhook.webhook_id,
        event_type: "message.received",
        status: "succeeded",
        next_attempt_at: null,
        attempts: [{ status_code: 200, error: null }],
      });
      expect(delivery.event_id).toBe(received?.headers["webhook-id"]);

      // The same delivery, by its event, already stored: at once.
      const again = await waitForDelivery({ event_id: delivery.event_id, timeout_ms: 0 });
      expect(again.body.delivery).toEqual(delivery);
    } finally {
      await receiver.close();
    }
  });

  it("wakes on an updated delivery: a failed attempt, then the retry that succeeds", async () => {
    const receiver = await startWebhookReceiver((_, index) => (index === 0 ? 503 : 200));
    try {
      const from = await newInbox(uniqueName("retry-from"));
      const to = await newInbox(uniqueName("retry-to"));
      const webhook = expectData(
        await t.inbox.POST("/v0/webhooks", {
          body: { url: receiver.url, event_types: ["message.received"], inbox_ids: [to] },
        }),
      );
      const succeeded = waitForDelivery({ webhook_id: webhook.webhook_id, status: "succeeded", timeout_ms: 10_000 });
      expectData(
        await t.inbox.POST("/v0/inboxes/{inbox_id}/messages", {
          params: { path: { inbox_id: from } },
          body: { to, subject: "Retry me", text: "Hi" },
        }),
      );
      const answer = await succeeded;
      expect(answer.status).toBe(200);
      expect(answer.body.delivery.attempts.map((attempt) => attempt.status_code)).toEqual([503, 200]);
      expect(receiver.deliveries).toHaveLength(2);

      // Nothing of that webhook failed for good, and nothing was sent to it before the test began.
      const failed = await waitForDelivery({ webhook_id: webhook.webhook_id, status: "failed", timeout_ms: 0 });
      expect(failed.status).toBe(404);
      const sinceLater = await waitForDelivery({
        webhook_id: webhook.webhook_id,
        since: new Date(Date.now() + 60_000).toISOString(),
        timeout_ms: 0,
      });
      expect(sinceLater.status).toBe(404);
    } finally {
      await receiver.close();
    }
  });

  it("times out with 404 WAIT_TIMED_OUT when no delivery matches", async () => {
    const answer = await control.get("/wait/webhook-delivery", {
      webhook_id: "wh_doesnotexist000",
      timeout_ms: 300,
    });
    expect(answer.status).toBe(404);
    expect(answer.body.error.details).toEqual({ field: null, code: "WAIT_TIMED_OUT" });
    expect(answer.elapsedMs).toBeGreaterThanOrEqual(300);
  });

  it.each([
    [{ status: "delivered" }, "status", "INVALID_VALUE"],
    [{ event_type: "message.unknown" }, "event_type", "INVALID_VALUE"],
    [{ webhook_id: "" }, "webhook_id", "INVALID_VALUE"],
    [{ timeout_ms: "ten" }, "timeout_ms", "INVALID_TYPE"],
  ])("refuses bad input %j with 400", async (query, field, code) => {
    const answer = await control.get("/wait/webhook-delivery", query);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ type: "validation_error", details: { field, code } });
  });
});
