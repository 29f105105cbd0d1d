import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_KEYS_PER_POD } from "../../src/inbox/key-handlers.ts";
import { newTestDatabase, testBackend } from "../support/test-database.ts";
import type { InboxClient, TestServer } from "../support/test-server.ts";
import { expectData, inboxClient, startTestServer } from "../support/test-server.ts";

// Writes a pod makes at once, from one instance or several on one PostgreSQL database: a partial update never loses
// another's change, and a per-pod bound is never passed, however the requests interleave.

let instances: TestServer[] = [];
beforeAll(async () => {
  const database = await newTestDatabase();
  const first = await startTestServer({ database });
  // A SQLite file serves one instance; on PostgreSQL a second one shares the database, as a cluster does.
  instances = testBackend() === "postgres" ? [first, await startTestServer({ database })] : [first];
});
afterAll(() => Promise.all(instances.map((instance) => instance.server.close())));

/** A new pod's key, and a client of it for each instance (request `i` goes to instance `i % n`). */
async function newPod(): Promise<{ apiKey: string; clients: InboxClient[] }> {
  const [first] = instances;
  if (!first) {
    throw new Error("No instance.");
  }
  const apiKey = await first.server.createApiKey("inbox");
  return { apiKey, clients: instances.map((instance) => inboxClient(instance.server.inbox.url, apiKey)) };
}

const clientFor = (clients: InboxClient[], index: number): InboxClient => {
  const client = clients[index % clients.length];
  if (!client) {
    throw new Error("No client.");
  }
  return client;
};

describe("Edit Webhook (PATCH) at once", () => {
  it("keeps every concurrent change: each adds one inbox or sets one field, and the webhook ends with all", async () => {
    const { clients } = await newPod();
    const [client] = clients;
    if (!client) {
      throw new Error("No client.");
    }
    const webhook = expectData(await client.POST("/v0/webhooks", { body: { url: "http://127.0.0.1:9/before" } }));
    // The filter holds at most 10 inboxes: each of these PATCHes adds one of them.
    const added = Array.from({ length: 10 }, (_, index) => `inbox-${index}@pigeonhole.test`);
    const patches = [
      ...added.map((inboxId) => ({ add_inbox_ids: [inboxId] })),
      { url: "http://127.0.0.1:9/after" },
      { enabled: false },
      { client_id: "edited-at-once" },
      { event_types: ["message.received" as const] },
    ];
    const answers = await Promise.all(
      patches.map((body, index) =>
        clientFor(clients, index).PATCH("/v0/webhooks/{webhook_id}", {
          params: { path: { webhook_id: webhook.webhook_id } },
          body,
        }),
      ),
    );
    expect(answers.map((answer) => answer.response.status)).toEqual(patches.map(() => 200));

    const final = expectData(
      await client.GET("/v0/webhooks/{webhook_id}", { params: { path: { webhook_id: webhook.webhook_id } } }),
    );
    expect([...(final.inbox_ids ?? [])].sort()).toEqual([...added].sort());
    expect(final).toMatchObject({
      url: "http://127.0.0.1:9/after",
      enabled: false,
      client_id: "edited-at-once",
      event_types: ["message.received"],
    });
  });

  it("keeps every concurrent removal: each takes one inbox out, and the filter ends empty", async () => {
    const { clients } = await newPod();
    const [client] = clients;
    if (!client) {
      throw new Error("No client.");
    }
    const inboxIds = Array.from({ length: 10 }, (_, index) => `gone-${index}@pigeonhole.test`);
    const webhook = expectData(
      await client.POST("/v0/webhooks", { body: { url: "http://127.0.0.1:9/hook", inbox_ids: inboxIds } }),
    );
    const answers = await Promise.all(
      inboxIds.map((inboxId, index) =>
        clientFor(clients, index).PATCH("/v0/webhooks/{webhook_id}", {
          params: { path: { webhook_id: webhook.webhook_id } },
          body: { remove_inbox_ids: [inboxId] },
        }),
      ),
    );
    expect(answers.map((answer) => answer.response.status)).toEqual(inboxIds.map(() => 200));
    const final = expectData(
      await client.GET("/v0/webhooks/{webhook_id}", { params: { path: { webhook_id: webhook.webhook_id } } }),
    );
    // An empty filter is no filter.
    expect(final.inbox_ids ?? null).toBeNull();
  });
});

describe("Create API Key at once", () => {
  it(`never takes a pod past ${API_KEYS_PER_POD} keys: of twice the room left, exactly the room succeeds`, async () => {
    const { clients } = await newPod();
    // The pod has its first key: room for API_KEYS_PER_POD - 1 more.
    const room = API_KEYS_PER_POD - 1;
    const answers = await Promise.all(
      Array.from({ length: 2 * room }, (_, index) =>
        clientFor(clients, index).POST("/v0/api-keys", { body: { name: `key-${index}` } }),
      ),
    );
    const statuses = answers.map((answer) => answer.response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(room);
    expect(statuses.filter((status) => status === 409)).toHaveLength(room);
    for (const refused of answers.filter((answer) => answer.response.status === 409)) {
      expect(refused.error).toMatchObject({
        error: { type: "conflict_error", details: { code: "API_KEY_LIMIT_REACHED" } },
      });
    }

    const [client] = clients;
    if (!client) {
      throw new Error("No client.");
    }
    let listed = 0;
    let pageToken: string | undefined;
    do {
      const page = expectData(
        await client.GET("/v0/api-keys", { params: { query: { limit: 100, page_token: pageToken } } }),
      );
      listed += page.count;
      pageToken = page.next_page_token ?? undefined;
    } while (pageToken !== undefined);
    expect(listed).toBe(API_KEYS_PER_POD);
  });
});
