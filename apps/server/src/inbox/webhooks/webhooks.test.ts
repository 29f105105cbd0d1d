import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { MessageReceivedEvent, MessageSentEvent, WebhookDelivery, WebhookEvent } from "@pigeonhole/inbox-types";
import { createTestControl, type TestControl } from "@pigeonhole/test-control";
import { Webhook as StandardWebhook } from "standardwebhooks";
import { Webhook as SvixWebhook } from "svix";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { InboxClient, TestServer } from "../../../test/support/test-server.ts";
import { expectData, startTestServer } from "../../../test/support/test-server.ts";
import type { ReceivedDelivery } from "../../../test/support/webhook-receiver.ts";
import { startWebhookReceiver } from "../../../test/support/webhook-receiver.ts";
import type { LogFields } from "../../logger.ts";
import { DEFAULT_WEBHOOK_RETRY_DELAYS_MS } from "../../options.ts";

// The default retry schedule: a test moves the server's clock past a retry instead of waiting for it.
let t: TestServer;
let control: TestControl;
beforeAll(async () => {
  t = await startTestServer();
  const testControl = t.server.testControl;
  if (!testControl) {
    throw new Error("Test control is off on the test server.");
  }
  control = createTestControl({ baseUrl: t.server.inbox.url, key: testControl.key });
});
afterEach(async () => {
  await control.clock.set({ frozen: false });
});
afterAll(() => t.server.close());

/** The webhook's only delivery once it has `attempts` attempts, asked every 20 ms; fails after 5 s. */
async function deliveryWith(client: InboxClient, webhookId: string, attempts: number): Promise<WebhookDelivery> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const { deliveries } = expectData(
      await client.GET("/v0/webhooks/{webhook_id}/deliveries", { params: { path: { webhook_id: webhookId } } }),
    );
    const [only] = deliveries;
    if (only && only.attempts.length >= attempts) {
      return only;
    }
    if (Date.now() > deadline) {
      throw new Error(`The delivery never had ${attempts} attempts: ${JSON.stringify(deliveries)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const newInbox = async (client: InboxClient, username: string) =>
  expectData(await client.POST("/v0/inboxes", { body: { username } })).inbox_id;

const send = async (client: InboxClient, from: string, to: string, subject = "hello") =>
  expectData(
    await client.POST("/v0/inboxes/{inbox_id}/messages", {
      params: { path: { inbox_id: from } },
      body: { to, subject },
    }),
  );

const headersOf = (delivery: ReceivedDelivery, prefix: "webhook" | "svix") =>
  Object.fromEntries(
    ["id", "timestamp", "signature"].map((name) => [
      `${prefix}-${name}`,
      String(delivery.headers[`${prefix}-${name}`]),
    ]),
  );

describe("webhook management", () => {
  it("creates, lists, reads, replaces and deletes a webhook", async () => {
    const tenant = await t.newInboxTenant();
    const created = expectData(
      await tenant.POST("/v0/webhooks", {
        body: { url: "https://hooks.example.com/a", client_id: "hook-a", event_types: ["message.received"] },
      }),
    );
    expect(created).toMatchObject({
      webhook_id: expect.stringMatching(/^wh_/),
      url: "https://hooks.example.com/a",
      client_id: "hook-a",
      enabled: true,
      event_types: ["message.received"],
      inbox_ids: null,
      secret: expect.stringMatching(/^whsec_/),
    });
    const again = expectData(
      await tenant.POST("/v0/webhooks", { body: { url: "https://other.example.com", client_id: "hook-a" } }),
    );
    expect(again).toEqual(created);

    const second = expectData(await tenant.POST("/v0/webhooks", { body: { url: "https://hooks.example.com/b" } }));
    const list = expectData(await tenant.GET("/v0/webhooks", {}));
    expect(list.webhooks.map((w) => w.webhook_id)).toEqual([second.webhook_id, created.webhook_id]);

    const replaced = expectData(
      await tenant.PUT("/v0/webhooks/{webhook_id}", {
        params: { path: { webhook_id: created.webhook_id } },
        body: { url: "https://hooks.example.com/new", enabled: false },
      }),
    );
    expect(replaced).toMatchObject({
      webhook_id: created.webhook_id,
      url: "https://hooks.example.com/new",
      client_id: null,
      enabled: false,
      event_types: null,
      inbox_ids: null,
      secret: created.secret,
      created_at: created.created_at,
    });
    expect(
      expectData(
        await tenant.GET("/v0/webhooks/{webhook_id}", { params: { path: { webhook_id: created.webhook_id } } }),
      ),
    ).toEqual(replaced);

    const deleted = await tenant.DELETE("/v0/webhooks/{webhook_id}", {
      params: { path: { webhook_id: created.webhook_id } },
    });
    expect(deleted.response.status).toBe(204);
    const gone = await tenant.GET("/v0/webhooks/{webhook_id}", {
      params: { path: { webhook_id: created.webhook_id } },
    });
    expect(gone.response.status).toBe(404);
    const deletedAgain = await tenant.DELETE("/v0/webhooks/{webhook_id}", {
      params: { path: { webhook_id: created.webhook_id } },
    });
    expect(deletedAgain.response.status).toBe(404);
  });

  it("answers 404 for another tenant's webhook on every operation", async () => {
    const owner = await t.newInboxTenant();
    const stranger = await t.newInboxTenant();
    const { webhook_id } = expectData(await owner.POST("/v0/webhooks", { body: { url: "https://hooks.example.com" } }));
    const path = { params: { path: { webhook_id } } };
    expect((await stranger.GET("/v0/webhooks/{webhook_id}", path)).response.status).toBe(404);
    expect(
      (await stranger.PUT("/v0/webhooks/{webhook_id}", { ...path, body: { url: "https://evil.example.com" } })).response
        .status,
    ).toBe(404);
    expect((await stranger.DELETE("/v0/webhooks/{webhook_id}", path)).response.status).toBe(404);
    expect(expectData(await stranger.GET("/v0/webhooks", {})).webhooks).toEqual([]);
  });

  it("refuses unknown event types, repeated ones, more than 10 inboxes and non-http URLs", async () => {
    const bad = async (body: unknown) =>
      (await t.inbox.POST("/v0/webhooks", { body: body as never })).error?.error.details;
    expect(await bad({ url: "https://x.example.com", event_types: ["message.exploded"] })).toEqual({
      field: "event_types.0",
      code: "INVALID_VALUE",
    });
    expect(await bad({ url: "https://x.example.com", event_types: ["message.sent", "message.sent"] })).toEqual({
      field: "event_types",
      code: "INVALID_VALUE",
    });
    const inboxes = Array.from({ length: 11 }, (_, i) => `i${i}@pigeonhole.test`);
    expect(await bad({ url: "https://x.example.com", inbox_ids: inboxes })).toEqual({
      field: "inbox_ids",
      code: "TOO_LONG",
    });
    expect(await bad({ url: "ftp://x.example.com" })).toEqual({ field: "url", code: "INVALID_VALUE" });
    expect(await bad({ url: "not a url" })).toEqual({ field: "url", code: "INVALID_VALUE" });
    expect(await bad({})).toEqual({ field: "url", code: "REQUIRED" });
  });

  it("answers 409 CLIENT_ID_TAKEN for a replacement that takes another webhook's client_id, changing nothing", async () => {
    const tenant = await t.newInboxTenant();
    const one = expectData(
      await tenant.POST("/v0/webhooks", { body: { url: "https://a.example.com", client_id: "one" } }),
    );
    const two = expectData(
      await tenant.POST("/v0/webhooks", { body: { url: "https://b.example.com", client_id: "two" } }),
    );
    const clash = await tenant.PUT("/v0/webhooks/{webhook_id}", {
      params: { path: { webhook_id: two.webhook_id } },
      body: { url: "https://c.example.com", client_id: "one" },
    });
    expect(clash.response.status).toBe(409);
    expect(clash.response.headers.get("X-Should-Retry")).toBe("false");
    expect(clash.error?.error).toMatchObject({
      type: "conflict_error",
      details: { field: "client_id", code: "CLIENT_ID_TAKEN" },
    });
    expect(clash.error?.error.message).toContain(one.webhook_id);
    const kept = expectData(
      await tenant.GET("/v0/webhooks/{webhook_id}", { params: { path: { webhook_id: two.webhook_id } } }),
    );
    expect(kept).toEqual(two);
  });

  it("answers 404 for a replacement of a webhook that does not exist, whatever client_id it names", async () => {
    const tenant = await t.newInboxTenant();
    expectData(await tenant.POST("/v0/webhooks", { body: { url: "https://a.example.com", client_id: "owned" } }));
    for (const client_id of ["owned", "free", undefined]) {
      const missing = await tenant.PUT("/v0/webhooks/{webhook_id}", {
        params: { path: { webhook_id: "wh_doesNotExist0000" } },
        body: { url: "https://b.example.com", client_id },
      });
      expect(missing.response.status, String(client_id)).toBe(404);
      expect(missing.error?.error.details).toEqual({ field: "webhook_id", code: "NOT_FOUND" });
    }
  });
});

describe("webhook deliveries", () => {
  it("delivers message.sent and message.received, signed for standardwebhooks and svix", async () => {
    const receiver = await startWebhookReceiver();
    try {
      const tenant = await t.newInboxTenant();
      const from = await newInbox(tenant, "hook-from");
      const to = await newInbox(tenant, "hook-to");
      const { secret } = expectData(await tenant.POST("/v0/webhooks", { body: { url: receiver.url } }));
      const sent = await send(tenant, from, to);
      const deliveries = await receiver.waitFor(2);

      const events = deliveries.map((delivery) => {
        const viaStandard = new StandardWebhook(secret).verify(delivery.body, headersOf(delivery, "webhook"));
        new SvixWebhook(secret).verify(delivery.body, headersOf(delivery, "svix"));
        expect(delivery.headers["webhook-id"]).toBe((viaStandard as WebhookEvent).event_id);
        expect(delivery.headers["svix-signature"]).toBe(delivery.headers["webhook-signature"]);
        return viaStandard as WebhookEvent;
      });
      const sentEvent = events.find((e): e is MessageSentEvent => e.event_type === "message.sent");
      const receivedEvent = events.find((e): e is MessageReceivedEvent => e.event_type === "message.received");
      expect(sentEvent?.send).toMatchObject({ inbox_id: from, message_id: sent.message_id, recipients: [to] });
      expect(receivedEvent?.message).toMatchObject({
        inbox_id: to,
        message_id: sent.message_id,
        labels: ["received", "unread"],
      });
      expect(receivedEvent?.thread).toMatchObject({ inbox_id: to, message_count: 1 });

      const tampered = { ...headersOf(deliveries[0] as ReceivedDelivery, "webhook") };
      expect(() => new StandardWebhook(secret).verify(`${deliveries[0]?.body} `, tampered)).toThrow();
    } finally {
      await receiver.close();
    }
  });

  it("filters by event type and inbox, and skips disabled webhooks", async () => {
    const receiver = await startWebhookReceiver();
    try {
      const tenant = await t.newInboxTenant();
      const a = await newInbox(tenant, "filter-a");
      const b = await newInbox(tenant, "filter-b");
      const hook = (path: string, extra: object) =>
        tenant.POST("/v0/webhooks", { body: { url: `${receiver.url}/${path}`, ...extra } });
      expectData(await hook("received-of-b", { event_types: ["message.received"], inbox_ids: [b.toUpperCase()] }));
      expectData(await hook("sent-only", { event_types: ["message.sent"] }));
      expectData(await hook("disabled", { enabled: false }));
      expectData(await hook("other-inbox", { inbox_ids: ["nobody@pigeonhole.test"] }));

      await send(tenant, a, b);
      await receiver.waitFor(2);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const byPath = receiver.deliveries.map((d) => {
        const event = JSON.parse(d.body) as WebhookEvent;
        return `${event.event_type}`;
      });
      expect(byPath.sort()).toEqual(["message.received", "message.sent"]);
      expect(receiver.deliveries).toHaveLength(2);
    } finally {
      await receiver.close();
    }
  });

  it("never delivers one tenant's events to another tenant's webhooks", async () => {
    const receiver = await startWebhookReceiver();
    try {
      const sender = await t.newInboxTenant();
      const bystander = await t.newInboxTenant();
      expectData(await bystander.POST("/v0/webhooks", { body: { url: receiver.url } }));
      const from = await newInbox(sender, "tenant-from");
      await send(sender, from, "someone@example.com");
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(receiver.deliveries).toHaveLength(0);
    } finally {
      await receiver.close();
    }
  });

  it("retries a failing receiver on the default schedule until it succeeds, keeping the event id", async () => {
    const receiver = await startWebhookReceiver((_delivery, index) => (index < 2 ? 503 : 204));
    try {
      const tenant = await t.newInboxTenant();
      const from = await newInbox(tenant, "retry-from");
      const { webhook_id } = expectData(
        await tenant.POST("/v0/webhooks", { body: { url: receiver.url, event_types: ["message.sent"] } }),
      );
      // Time stands still but for the test's moves: each attempt is made at the time its delay says, exactly.
      const frozenAt = Date.parse((await control.clock.set({ frozen: true })).now);
      await send(tenant, from, "x@example.com");
      const [firstDelay = 0, secondDelay = 0] = DEFAULT_WEBHOOK_RETRY_DELAYS_MS;
      await deliveryWith(tenant, webhook_id, 1);
      await control.clock.advance(firstDelay - 1);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(receiver.deliveries).toHaveLength(1);
      await control.clock.advance(1);
      await deliveryWith(tenant, webhook_id, 2);
      await control.clock.advance(secondDelay);
      const delivery = await control.waitForWebhookDelivery({ webhook_id, status: "succeeded", timeout_ms: 5_000 });

      expect(delivery.attempts.map((a) => [Date.parse(a.attempted_at) - frozenAt, a.status_code])).toEqual([
        [0, 503],
        [firstDelay, 503],
        [firstDelay + secondDelay, 204],
      ]);
      expect(receiver.deliveries).toHaveLength(3);
      expect(new Set(receiver.deliveries.map((d) => d.headers["webhook-id"]))).toEqual(new Set([delivery.event_id]));
    } finally {
      await receiver.close();
    }
  });

  it("gives up after the last retry of the default schedule", async () => {
    const receiver = await startWebhookReceiver(() => 500);
    try {
      const tenant = await t.newInboxTenant();
      const from = await newInbox(tenant, "give-up");
      const { webhook_id } = expectData(
        await tenant.POST("/v0/webhooks", { body: { url: receiver.url, event_types: ["message.sent"] } }),
      );
      await send(tenant, from, "x@example.com");
      for (const [retry, delay] of DEFAULT_WEBHOOK_RETRY_DELAYS_MS.entries()) {
        const pending = await deliveryWith(tenant, webhook_id, retry + 1);
        expect(pending.status).toBe("pending");
        await control.clock.advance(delay);
      }
      const delivery = await control.waitForWebhookDelivery({ webhook_id, status: "failed", timeout_ms: 5_000 });
      expect(delivery.attempts).toHaveLength(DEFAULT_WEBHOOK_RETRY_DELAYS_MS.length + 1);
      expect(delivery.next_attempt_at).toBeNull();
      // No attempt after the last: a day later, still as many.
      await control.clock.advance({ days: 1 });
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(receiver.deliveries).toHaveLength(DEFAULT_WEBHOOK_RETRY_DELAYS_MS.length + 1);
    } finally {
      await receiver.close();
    }
  });
});

describe("private destinations", () => {
  it("refuses to deliver to loopback unless allowed, records the failure, and the API call itself succeeds", async () => {
    const receiver = await startWebhookReceiver();
    const refusals: string[] = [];
    const logger = {
      info: () => {},
      error: () => {},
      warn: (message: string, fields?: LogFields) => {
        if (message.startsWith("webhook delivery failed")) {
          refusals.push(String(fields?.error));
        }
      },
    };
    // The default retry schedule, driven by this server's own clock.
    const strict = await startTestServer({ allowPrivateWebhooks: false, logger });
    try {
      const testControl = strict.server.testControl;
      if (!testControl) {
        throw new Error("Test control is off on the strict server.");
      }
      const strictControl = createTestControl({ baseUrl: strict.server.inbox.url, key: testControl.key });
      await strictControl.clock.set({ frozen: true });
      const from = await newInbox(strict.inbox, "strict");
      const { webhook_id } = expectData(
        await strict.inbox.POST("/v0/webhooks", { body: { url: receiver.url, event_types: ["message.sent"] } }),
      );
      await send(strict.inbox, from, "x@example.com");
      for (const [retry, delay] of DEFAULT_WEBHOOK_RETRY_DELAYS_MS.entries()) {
        await deliveryWith(strict.inbox, webhook_id, retry + 1);
        await strictControl.clock.advance(delay);
      }
      const delivery = await strictControl.waitForWebhookDelivery({ webhook_id, status: "failed", timeout_ms: 5_000 });
      expect(receiver.deliveries).toHaveLength(0);
      // Every attempt of the schedule, the first and each retry, was refused before any request was made.
      expect(delivery.attempts).toHaveLength(DEFAULT_WEBHOOK_RETRY_DELAYS_MS.length + 1);
      for (const attempt of delivery.attempts) {
        expect(attempt.status_code).toBeNull();
        expect(attempt.error).toContain("private or loopback address (127.0.0.1)");
      }
      expect(refusals).toHaveLength(DEFAULT_WEBHOOK_RETRY_DELAYS_MS.length + 1);
      expect(refusals[0]).toContain("private or loopback address (127.0.0.1)");
    } finally {
      await strict.server.close();
      await receiver.close();
    }
  });
});

describe("durable deliveries", () => {
  it("delivers after a restart what was pending when the server stopped", async () => {
    const dir = mkdtempSync(join(tmpdir(), "pigeonhole-webhooks-"));
    const database = join(dir, "server.db");
    // The receiver is down while the first server runs: every attempt fails and waits a long backoff.
    const down = await startWebhookReceiver(() => 503);
    const { port } = down;
    try {
      const first = await startTestServer({ database, webhookRetryDelaysMs: [3_600_000] });
      const from = await newInbox(first.inbox, "durable");
      expectData(await first.inbox.POST("/v0/webhooks", { body: { url: `http://127.0.0.1:${port}/hook` } }));
      const sent = await send(first.inbox, from, "x@example.com");
      await down.waitFor(1);
      await first.server.close();
      await down.close();

      // The receiver comes back on the same address; the restarted server delivers without waiting the backoff.
      const up = await startWebhookReceiver(() => 200, port);
      const second = await startTestServer({ database, webhookRetryDelaysMs: [3_600_000] });
      try {
        const [delivery] = await up.waitFor(1, 5_000);
        const event = JSON.parse(delivery?.body ?? "{}") as MessageSentEvent;
        expect(event.event_type).toBe("message.sent");
        expect(event.send.message_id).toBe(sent.message_id);
      } finally {
        await second.server.close();
        await up.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
