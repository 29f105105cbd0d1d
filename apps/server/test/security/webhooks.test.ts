import { createTestControl } from "@pigeonhole/test-control";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_DELIVERIES_PER_POD } from "../../src/inbox/webhooks/delivery-worker.ts";
import { DestinationRefusedError, enforceDestinationPolicy } from "../../src/inbox/webhooks/destination-policy.ts";
import type { InboxClient, TestServer } from "../support/test-server.ts";
import { expectData, startTestServer } from "../support/test-server.ts";
import { startHangingReceiver, startWebhookReceiver } from "../support/webhook-receiver.ts";

// Webhooks under a hostile tenant: a URL no request can be made to is a client error, never a 500; no webhook reaches
// a private, loopback or translated address (by its literal or by what its name resolves to); a pod has a bounded
// number of webhooks; and a pod whose receivers hang never holds up another pod's deliveries.

const WEBHOOKS_PER_POD = 3;
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ webhooksPerPod: WEBHOOKS_PER_POD });
});
afterAll(() => t.server.close());

const createWebhook = (client: InboxClient, url: string, clientId?: string) =>
  client.POST("/v0/webhooks", { body: { url, ...(clientId ? { client_id: clientId } : {}) } });

const newInbox = async (client: InboxClient, username: string) =>
  expectData(await client.POST("/v0/inboxes", { body: { username } })).inbox_id;

/** Sends one message out of `inboxId`: a `message.sent` event for each of the pod's webhooks. */
const sendOne = async (client: InboxClient, inboxId: string) =>
  expectData(
    await client.POST("/v0/inboxes/{inbox_id}/messages", {
      params: { path: { inbox_id: inboxId } },
      body: { to: "someone@example.com", subject: "hello", text: "hello" },
    }),
  );

const UNREQUESTABLE_URLS = [
  "http://256.1.1.1/",
  "http://1.2.3.4.5/",
  "http://[::1]:99999/",
  "http://exa%00mple.com/",
  "https://hooks.example.com:65536/hook",
];

describe("webhook URLs", () => {
  it.each(UNREQUESTABLE_URLS)("refuses %s with 400 INVALID_URL on create", async (url) => {
    const tenant = await t.newInboxTenant();
    const { error, response } = await createWebhook(tenant, url);
    expect(response.status).toBe(400);
    expect(error).toEqual({
      error: { type: "validation_error", message: expect.any(String), details: { field: "url", code: "INVALID_URL" } },
    });
  });

  it("refuses every such URL with 400 INVALID_URL on update, and leaves the webhook as it was", async () => {
    const tenant = await t.newInboxTenant();
    const created = expectData(await createWebhook(tenant, "https://hooks.example.com/hook"));
    for (const url of UNREQUESTABLE_URLS) {
      const { error, response } = await tenant.PUT("/v0/webhooks/{webhook_id}", {
        params: { path: { webhook_id: created.webhook_id } },
        body: { url },
      });
      expect(response.status, url).toBe(400);
      expect(error?.error.details, url).toEqual({ field: "url", code: "INVALID_URL" });
    }
    const kept = expectData(
      await tenant.GET("/v0/webhooks/{webhook_id}", { params: { path: { webhook_id: created.webhook_id } } }),
    );
    expect(kept.url).toBe("https://hooks.example.com/hook");
  });
});

describe("webhook destinations", () => {
  // Translated and special IPv6 ranges: a delivery there reaches an IPv4 address they embed (NAT64, 6to4, the
  // IPv4-compatible form) or a network of the operator's own (site-local).
  const SPECIAL_IPV6 = [
    "64:ff9b:1::a00:1",
    "64:ff9b:1:ffff::1",
    "::a00:1",
    "::7f00:1",
    "2002:7f00:1::",
    "2002:a00:1::1",
    "fec0::1",
    "feff::1",
  ];

  it.each(SPECIAL_IPV6)("refuses to deliver to %s as to any private address", (address) => {
    expect(() => enforceDestinationPolicy(`[${address}]`, [address], false)).toThrow(DestinationRefusedError);
  });

  it("still delivers to public addresses next to those ranges", () => {
    for (const address of ["2003::1", "2001:4860:4860::8888", "64:ff9b:2::1", "8.8.8.8", "::ffff:8.8.8.8"]) {
      expect(() => enforceDestinationPolicy(address, [address], false), address).not.toThrow();
    }
  });

  it("refuses, before connecting, a literal special address and a name that resolves to loopback", async () => {
    const receiver = await startWebhookReceiver();
    // No retries: the first refused attempt fails the delivery for good.
    const strict = await startTestServer({ allowPrivateWebhooks: false, webhookRetryDelaysMs: [] });
    try {
      const testControl = strict.server.testControl;
      if (!testControl) {
        throw new Error("Test control is off on the strict server.");
      }
      const control = createTestControl({ baseUrl: strict.server.inbox.url, key: testControl.key });
      const inboxId = await newInbox(strict.inbox, "strict-sender");
      const urls = [
        `http://[2002:7f00:1::]:${receiver.port}/hook`,
        `http://[64:ff9b:1::7f00:1]:${receiver.port}/hook`,
        `http://localhost:${receiver.port}/hook`,
      ];
      const webhooks = [];
      for (const url of urls) {
        webhooks.push(expectData(await createWebhook(strict.inbox, url)).webhook_id);
      }
      await sendOne(strict.inbox, inboxId);
      for (const webhookId of webhooks) {
        const delivery = await control.waitForWebhookDelivery({
          webhook_id: webhookId,
          status: "failed",
          timeout_ms: 10_000,
        });
        expect(delivery.attempts).toHaveLength(1);
        expect(delivery.attempts[0]?.status_code).toBeNull();
        expect(delivery.attempts[0]?.error).toContain("private or loopback address");
      }
      expect(receiver.deliveries).toHaveLength(0);
    } finally {
      await strict.server.close();
      await receiver.close();
    }
  });
});

describe("webhooks per pod", () => {
  it("refuses one webhook more than the cap with 409 WEBHOOK_LIMIT_REACHED, per pod, until one is deleted", async () => {
    const tenant = await t.newInboxTenant();
    const created = [];
    for (let i = 0; i < WEBHOOKS_PER_POD; i++) {
      created.push(expectData(await createWebhook(tenant, `https://hooks.example.com/${i}`, `hook-${i}`)));
    }
    const { error, response } = await createWebhook(tenant, "https://hooks.example.com/one-more");
    expect(response.status).toBe(409);
    expect(response.headers.get("X-Should-Retry")).toBe("false");
    expect(error).toEqual({
      error: {
        type: "conflict_error",
        message: expect.any(String),
        details: { field: null, code: "WEBHOOK_LIMIT_REACHED" },
      },
    });

    // Creating again with a client_id already used still answers the first webhook: nothing new is created.
    const again = expectData(await createWebhook(tenant, "https://hooks.example.com/0", "hook-0"));
    expect(again.webhook_id).toBe(created[0]?.webhook_id);
    // Another pod has a cap of its own.
    const neighbour = await t.newInboxTenant();
    expectData(await createWebhook(neighbour, "https://hooks.example.com/neighbour"));

    const first = created[0]?.webhook_id ?? "";
    const deleted = await tenant.DELETE("/v0/webhooks/{webhook_id}", { params: { path: { webhook_id: first } } });
    expect(deleted.response.status).toBe(204);
    expectData(await createWebhook(tenant, "https://hooks.example.com/instead"));
    const { webhooks } = expectData(await tenant.GET("/v0/webhooks", {}));
    expect(webhooks).toHaveLength(WEBHOOKS_PER_POD);
  });

  it.each([
    ["from a pod that has a webhook", 1],
    ["from a pod with no webhook yet, which has none to lock", 0],
  ])("keeps the cap when creates race %s", async (_, existing) => {
    const tenant = await t.newInboxTenant();
    for (let i = 0; i < existing; i++) {
      expectData(await createWebhook(tenant, `https://hooks.example.com/first-${i}`));
    }
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => createWebhook(tenant, `https://hooks.example.com/race-${i}`)),
    );
    const statuses = answers.map((answer) => answer.response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(WEBHOOKS_PER_POD - existing);
    expect(statuses.filter((status) => status === 409)).toHaveLength(8 - (WEBHOOKS_PER_POD - existing));
    const { webhooks } = expectData(await tenant.GET("/v0/webhooks", {}));
    expect(webhooks).toHaveLength(WEBHOOKS_PER_POD);
  });
});

describe("deliveries of a pod whose receivers hang", () => {
  it("do not hold up another pod's delivery: it arrives while the hanging attempts are still open", async () => {
    const HOSTILE_WEBHOOKS = 24;
    const hanging = await startHangingReceiver();
    const answering = await startWebhookReceiver();
    // A 20 s claim makes each attempt give up after 10 s: a delivery that had to wait for a slot would arrive only
    // after the first hanging attempt was abandoned.
    const server = await startTestServer({ webhooksPerPod: HOSTILE_WEBHOOKS, webhookClaimMs: 20_000 });
    try {
      const hostile = await server.newInboxTenant();
      const neighbour = await server.newInboxTenant();
      const hostileInbox = await newInbox(hostile, "hostile");
      const neighbourInbox = await newInbox(neighbour, "neighbour");
      for (let i = 0; i < HOSTILE_WEBHOOKS; i++) {
        expectData(await createWebhook(hostile, hanging.url));
      }
      expectData(await createWebhook(neighbour, answering.url));

      await sendOne(hostile, hostileInbox);
      await hanging.holding(DEFAULT_DELIVERIES_PER_POD);
      await sendOne(neighbour, neighbourInbox);
      const first = await Promise.race([
        answering.waitFor(1, 25_000).then(
          () => "the neighbour's delivery arrived",
          () => "the neighbour's delivery never arrived",
        ),
        hanging.firstAbandoned().then(() => "a hanging attempt was abandoned"),
      ]);

      expect(first).toBe("the neighbour's delivery arrived");
      expect(hanging.abandoned()).toBe(0);
      // The hostile pod holds its share of the slots and no more.
      expect(hanging.held()).toBe(DEFAULT_DELIVERIES_PER_POD);
    } finally {
      await server.server.close();
      await hanging.close();
      await answering.close();
    }
  });
});
