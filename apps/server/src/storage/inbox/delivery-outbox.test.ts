import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openTestDatabase } from "../../../test/support/test-database.ts";
import type { ClaimRequest } from "../claimed-rows.ts";
import type { ServerDatabase } from "../database.ts";
import type { SqlDialect } from "../sql-dialect.ts";
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
  [db, dialect] = await openTestDatabase(6);
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

describe("claims on a lease", () => {
  const LEASE = 10_000;
  const claimAt = (claimant: string, nowMs: number) =>
    outbox.claimDue({ claimant, dueMs: nowMs, nowMs, untilMs: nowMs + LEASE, limit: 10 });
  const delivered = (attemptedAtMs: number) => ({
    status: "delivered" as const,
    attempts: 1,
    nextAttemptAtMs: attemptedAtMs,
    lastError: null,
    lastStatusCode: 200,
    finishedAt: new Date(attemptedAtMs).toISOString(),
    updatedAt: new Date(attemptedAtMs).toISOString(),
    attempt: { attemptedAt: new Date(attemptedAtMs).toISOString(), statusCode: 200, error: null, latencyMs: 5 },
  });
  const row = (seq: number) =>
    db
      .selectFrom("webhook_deliveries")
      .select(["status", "claimed_by", "claimed_until_ms"])
      .where("seq", "=", seq)
      .executeTakeFirstOrThrow();

  it("hold past their first lease while renewed, and go to another instance once renewal stops", async () => {
    await podWithDeliveries("pod-a", 1, NOW - 1_000);
    const [held] = await claimAt("owner", NOW);
    if (!held) {
      throw new Error("The owner claimed the delivery.");
    }
    await outbox.renewClaims("owner", [held.seq], NOW + 5_000 + LEASE);
    expect(await claimAt("other", NOW + LEASE + 1)).toEqual([]);

    // The owner failed to renew (its database connection was down): the lease runs out and another instance takes it.
    const [taken] = await claimAt("other", NOW + 5_000 + LEASE + 1);
    expect(taken?.seq).toBe(held.seq);
    await outbox.renewClaims("owner", [held.seq], NOW + 30_000);
    expect(await row(held.seq)).toEqual({
      status: "pending",
      claimed_by: "other",
      claimed_until_ms: NOW + 5_000 + 2 * LEASE + 1,
    });
  });

  it("keep an attempt that outlived its owner's lease from recording over the instance that took the delivery", async () => {
    await podWithDeliveries("pod-a", 1, NOW - 1_000);
    const [held] = await claimAt("owner", NOW);
    const [taken] = await claimAt("other", NOW + LEASE + 1);
    if (!held || !taken) {
      throw new Error("Both instances claimed the delivery in turn.");
    }
    await outbox.recordAttempt(held.seq, "owner", delivered(NOW + LEASE + 2));
    expect(await row(held.seq)).toEqual({
      status: "pending",
      claimed_by: "other",
      claimed_until_ms: NOW + 2 * LEASE + 1,
    });
    const logged = () => db.selectFrom("webhook_delivery_attempts").select("delivery_seq").execute();
    expect(await logged()).toEqual([]);

    await outbox.recordAttempt(taken.seq, "other", delivered(NOW + LEASE + 3));
    expect(await row(held.seq)).toEqual({ status: "delivered", claimed_by: null, claimed_until_ms: null });
    expect(await logged()).toEqual([{ delivery_seq: held.seq }]);
  });
});
