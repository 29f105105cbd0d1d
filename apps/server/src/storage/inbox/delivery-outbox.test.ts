import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { newTestDatabase, testBackend } from "../../../test/support/test-database.ts";
import type { ClaimRequest } from "../claimed-rows.ts";
import type { ServerDatabase } from "../database.ts";
import { openPostgres } from "../postgres/open-postgres.ts";
import { postgresDialect } from "../postgres/postgres-dialect.ts";
import type { SqlDialect } from "../sql-dialect.ts";
import { openSqlite } from "../sqlite/open-sqlite.ts";
import { sqliteDialect } from "../sqlite/sqlite-dialect.ts";
import { UnitsOfWork } from "../unit-of-work.ts";
import type { ClaimedDelivery } from "./delivery-outbox.ts";
import { deliveryGroup, enqueueDeliveries, SqlDeliveryOutbox } from "./delivery-outbox.ts";
import { SqlWebhookStore } from "./webhook-store.ts";

const NOW = Date.parse("2026-11-25T10:00:00.000Z");
const AT = new Date(NOW).toISOString();

let db: ServerDatabase;
let dialect: SqlDialect;
let outbox: SqlDeliveryOutbox;
beforeAll(async () => {
  const location = await newTestDatabase();
  [db, dialect] =
    testBackend() === "postgres"
      ? [await openPostgres(location, { poolSize: 6, onConnectionError: () => {} }), postgresDialect]
      : [await openSqlite(location), sqliteDialect];
  outbox = new SqlDeliveryOutbox(db, dialect);
});
afterAll(() => db.destroy());
beforeEach(async () => {
  await db.deleteFrom("webhook_delivery_attempts").execute();
  await db.deleteFrom("webhook_deliveries").execute();
  await db.deleteFrom("webhooks").execute();
});

/** Gives `pod` a webhook and `count` due deliveries to it, the earliest due at `firstDueMs`, one a millisecond. */
async function podWithDeliveries(pod: string, count: number, firstDueMs: number): Promise<void> {
  const webhooks = new SqlWebhookStore(db, dialect, new UnitsOfWork(db, dialect));
  const webhookId = `wh_${pod}`;
  await webhooks.createWebhook(
    pod,
    webhookId,
    "whsec_x",
    { url: "https://hooks.example.com/", clientId: null, enabled: true, eventTypes: null, inboxIds: null },
    AT,
    20,
  );
  for (let i = 0; i < count; i++) {
    await enqueueDeliveries(
      db,
      [
        {
          webhookId,
          inboxId: `${pod}@example.test`,
          eventId: `evt_${pod}_${i}`,
          eventType: "message.sent",
          payload: "{}",
        },
      ],
      AT,
      firstDueMs + i,
    );
  }
}

const claim = (claimant: string, limit: number, share?: ClaimRequest["share"]) =>
  outbox.claimDue({ claimant, dueMs: NOW, nowMs: NOW, untilMs: NOW + 60_000, limit, ...(share ? { share } : {}) });

const countByPod = (claims: readonly ClaimedDelivery[]) => {
  const counts: Record<string, number> = {};
  for (const delivery of claims) {
    const pod = deliveryGroup(delivery);
    counts[pod] = (counts[pod] ?? 0) + 1;
  }
  return counts;
};

describe("claims with a share per pod", () => {
  it("go round the pods, each pod's oldest first, and take no pod past its share", async () => {
    await podWithDeliveries("pod-a", 6, NOW - 10_000);
    await podWithDeliveries("pod-b", 3, NOW - 5_000);
    await podWithDeliveries("pod-c", 1, NOW - 1_000);

    // Without a share the oldest go first: all of one pod.
    const oldestFirst = await claim("plain", 5);
    expect(countByPod(oldestFirst)).toEqual({ "pod-a": 5 });
    await outbox.releaseClaims("plain");

    const fair = await claim("fair", 5, { perGroup: 2, inFlight: new Map() });
    expect(countByPod(fair)).toEqual({ "pod-a": 2, "pod-b": 2, "pod-c": 1 });
    expect(fair.filter((d) => deliveryGroup(d) === "pod-a").map((d) => d.eventId)).toEqual([
      "evt_pod-a_0",
      "evt_pod-a_1",
    ]);
    await outbox.releaseClaims("fair");

    // What is in flight already counts against the share.
    const busy = await claim("busy", 10, {
      perGroup: 2,
      inFlight: new Map([
        ["pod-a", 2],
        ["pod-b", 1],
      ]),
    });
    expect(countByPod(busy)).toEqual({ "pod-b": 1, "pod-c": 1 });
  });

  it("never give one delivery to two instances claiming at once", async () => {
    await podWithDeliveries("pod-a", 12, NOW - 10_000);
    await podWithDeliveries("pod-b", 12, NOW - 5_000);

    const claims = await Promise.all(
      ["one", "two", "three", "four"].map((claimant) => claim(claimant, 8, { perGroup: 3, inFlight: new Map() })),
    );
    const seqs = claims.flat().map((delivery) => delivery.seq);
    expect(new Set(seqs).size).toBe(seqs.length);
    for (const claimed of claims) {
      for (const count of Object.values(countByPod(claimed))) {
        expect(count).toBeLessThanOrEqual(3);
      }
    }
    const held = await db
      .selectFrom("webhook_deliveries")
      .select(["seq", "claimed_by"])
      .where("claimed_by", "is not", null)
      .execute();
    expect(held.map((row) => row.seq).toSorted((a, b) => a - b)).toEqual(seqs.toSorted((a, b) => a - b));
  });
});
