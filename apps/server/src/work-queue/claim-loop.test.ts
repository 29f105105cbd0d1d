import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { recordingLogger } from "../../test/support/recording-logger.ts";
import { openTestDatabase } from "../../test/support/test-database.ts";
import { type Clock, systemClock } from "../clock.ts";
import type { ServerDatabase } from "../storage/database.ts";
import type { ClaimedDelivery, DeliveryOutbox, DeliveryState } from "../storage/inbox/delivery-outbox.ts";
import { enqueueDeliveries, SqlDeliveryOutbox } from "../storage/inbox/delivery-outbox.ts";
import { SqlWebhookStore } from "../storage/inbox/webhook-store.ts";
import type { SqlDialect } from "../storage/sql-dialect.ts";
import { UnitsOfWork } from "../storage/unit-of-work.ts";
import { ClaimLoop } from "./claim-loop.ts";

// Two loops on one database stand for two instances: a claim is a short lease that its loop renews while the attempt
// runs, so the other loop never attempts a row in flight, and takes it over once renewal stops.

const LEASE_MS = 300;

let db: ServerDatabase;
let dialect: SqlDialect;
beforeAll(async () => {
  [db, dialect] = await openTestDatabase(6);
});
afterAll(() => db.destroy());

const loops: ClaimLoop<ClaimedDelivery>[] = [];
/** Lets every held attempt go, so that a failed test still stops its loops. */
const releases: (() => void)[] = [];
afterEach(async () => {
  for (const release of releases.splice(0)) {
    release();
  }
  await Promise.all(loops.splice(0).map((loop) => loop.stop()));
  await db.deleteFrom("webhook_delivery_attempts").execute();
  await db.deleteFrom("webhook_deliveries").execute();
  await db.deleteFrom("webhooks").execute();
});

/** `count` deliveries due now, to one webhook. */
async function dueDeliveries(count: number): Promise<void> {
  const webhooks = new SqlWebhookStore(db, dialect, new UnitsOfWork(db, dialect));
  const at = new Date().toISOString();
  await webhooks.createWebhook(
    "pod",
    "wh_loop",
    "whsec_x",
    { url: "https://hooks.example.com/", clientId: null, enabled: true, eventTypes: null, inboxIds: null },
    at,
    20,
  );
  const deliveries = Array.from({ length: count }, (_, i) => ({
    webhookId: "wh_loop",
    inboxId: "pod@example.test",
    eventId: `evt_${i}`,
    eventType: "message.sent",
    payload: "{}",
  }));
  await enqueueDeliveries(db, deliveries, at, Date.now() - 1_000);
}

const delivered = (): DeliveryState => {
  const at = new Date().toISOString();
  return {
    status: "delivered",
    attempts: 1,
    nextAttemptAtMs: Date.now(),
    lastError: null,
    lastStatusCode: 200,
    finishedAt: at,
    updatedAt: at,
    attempt: { attemptedAt: at, statusCode: 200, error: null, latencyMs: 1 },
  };
};

/** A promise with its resolve, to let a held attempt go or to wait for an attempt to begin. */
function signal<T = void>() {
  let resolve: (value: T) => void = () => {};
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

/** An attempt's hold, let go by `resolve()` or at the end of the test. */
function hold() {
  const held = signal();
  releases.push(() => held.resolve());
  return held;
}

/** Waits until `done()` holds, looking every 20 ms, for at most 10 s. */
function until(done: () => Promise<boolean>, what: string): Promise<void> {
  return vi.waitFor(
    async () => {
      if (!(await done())) {
        throw new Error(`Still waiting for ${what}.`);
      }
    },
    { timeout: 10_000, interval: 20 },
  );
}

/** The outbox with another way to renew claims (an unreachable database, a count of the statements). */
const renewingWith = (outbox: DeliveryOutbox, renewClaims: DeliveryOutbox["renewClaims"]): DeliveryOutbox => ({
  claimDue: (claim) => outbox.claimDue(claim),
  renewClaims,
  releaseClaims: (claimant) => outbox.releaseClaims(claimant),
  releaseAllClaims: (nowMs) => outbox.releaseAllClaims(nowMs),
  nextDueAt: (nowMs) => outbox.nextDueAt(nowMs),
  depth: (dueMs) => outbox.depth(dueMs),
  recordAttempt: (seq, claimant, state) => outbox.recordAttempt(seq, claimant, state),
});

interface LoopOptions {
  /** Each attempt waits for it before recording its delivery. */
  hold?: Promise<void>;
  onAttempt?: (seq: number) => void;
  concurrency?: number;
  /** The clock claims are held by (default: real time). */
  claimClock?: Clock;
}

/**
 * A loop named `instanceId` whose attempts record delivery, noting each seq, the lines it logs (`errors`: those but
 * for failed renewals) and the rows it counts as claimed.
 */
function startLoop(instanceId: string, queue: DeliveryOutbox, options: LoopOptions = {}) {
  const attempted: number[] = [];
  const { logger, lines } = recordingLogger();
  const counted: { queue: string; rows: number }[] = [];
  const loop = new ClaimLoop<ClaimedDelivery>({
    queue,
    queueName: "webhook_deliveries",
    logger,
    describeClaim: (delivery) => ({ event_id: delivery.eventId }),
    meter: { claimed: (name, rows) => counted.push({ queue: name, rows }) },
    instanceId,
    soleInstance: false,
    clock: systemClock,
    ...(options.claimClock ? { claimClock: options.claimClock } : {}),
    claimMs: 60_000,
    leaseMs: LEASE_MS,
    concurrency: options.concurrency ?? 8,
    pollIntervalMs: 25,
    async attempt(delivery) {
      attempted.push(delivery.seq);
      options.onAttempt?.(delivery.seq);
      await options.hold;
      await queue.recordAttempt(delivery.seq, instanceId, delivered());
    },
  });
  loops.push(loop);
  const renewalsFailed = () => lines.filter((line) => line.msg === "work queue claims could not be renewed");
  return {
    loop,
    attempted,
    counted,
    renewalsFailed,
    get errors() {
      return lines.filter((line) => line.msg !== "work queue claims could not be renewed");
    },
  };
}

const claims = () =>
  db
    .selectFrom("webhook_deliveries")
    .select(["seq", "status", "claimed_by", "claimed_until_ms"])
    .orderBy("seq")
    .execute();

describe("claims on a lease", () => {
  it("are renewed while their attempts run, all in one statement: another loop attempts none of them", async () => {
    await dueDeliveries(4);
    const outbox = new SqlDeliveryOutbox(db, dialect);
    const renewals: (readonly number[])[] = [];
    const counting = renewingWith(outbox, (claimant, seqs, untilMs) => {
      renewals.push(seqs);
      return outbox.renewClaims(claimant, seqs, untilMs);
    });
    // Claims are held by a clock that moves a third of a lease only after each renewal, as a renewal on time would
    // see it: however late a busy machine runs the renewal timer, no claim runs out in between.
    let claimNow = Date.now();
    const claimClock: Clock = { now: () => claimNow };
    const release = hold();
    const owner = startLoop("owner", counting, { hold: release.promise, claimClock });
    await owner.loop.start();
    await until(async () => owner.attempted.length === 4, "the owner's four attempts");
    const first = await claims();
    const firstUntil = Math.max(...first.map((row) => row.claimed_until_ms ?? 0));
    const other = startLoop("other", outbox, { claimClock });
    await other.loop.start();

    // Three leases go by: without renewal every claim would have run out twice over, and the other loop, looking
    // every 25 ms, would have taken them.
    for (let step = 0; step < 10; step += 1) {
      claimNow += LEASE_MS / 3;
      const renewed = renewals.length;
      await until(async () => renewals.length > renewed, "a renewal");
    }
    await until(
      async () => (await claims()).every((row) => (row.claimed_until_ms ?? 0) > firstUntil + 3 * LEASE_MS),
      "three leases of renewals",
    );
    expect(other.attempted).toEqual([]);
    expect((await claims()).map((row) => row.claimed_by)).toEqual(["owner", "owner", "owner", "owner"]);
    // One statement per renewal, naming every row in flight.
    expect(renewals.length).toBeGreaterThanOrEqual(3);
    for (const seqs of renewals) {
      expect([...seqs].sort((a, b) => a - b)).toEqual(first.map((row) => row.seq));
    }

    release.resolve();
    await owner.loop.idle();
    expect((await claims()).map((row) => [row.status, row.claimed_by])).toEqual(Array(4).fill(["delivered", null]));
    // The rows claimed are counted under the queue's name, once each.
    expect(owner.counted.every((count) => count.queue === "webhook_deliveries")).toBe(true);
    expect(owner.counted.reduce((sum, count) => sum + count.rows, 0)).toBe(4);
    expect(other.counted).toEqual([]);
    expect(other.attempted).toEqual([]);
    const logged = await db.selectFrom("webhook_delivery_attempts").select("delivery_seq").execute();
    expect(logged).toHaveLength(4);
    expect([...owner.errors, ...other.errors]).toEqual([]);
  });

  it("run out when their loop fails to renew them: another loop delivers, and the late outcome is not recorded", async () => {
    await dueDeliveries(1);
    const outbox = new SqlDeliveryOutbox(db, dialect);
    // The owner's database connection is down whenever it renews.
    const unrenewable = renewingWith(outbox, () => Promise.reject(new Error("connection refused")));
    const release = hold();
    const begun = signal<number>();
    // One attempt at a time, so the owner does not claim the row again itself once its lease runs out.
    const owner = startLoop("owner", unrenewable, {
      concurrency: 1,
      hold: release.promise,
      onAttempt: begun.resolve,
    });
    await owner.loop.start();
    const seq = await begun.promise;
    const taken = signal<number>();
    const other = startLoop("other", outbox, { onAttempt: taken.resolve });
    await other.loop.start();

    expect(await taken.promise).toBe(seq);
    await other.loop.idle();
    // Each failed renewal is logged with its queue's name.
    expect(owner.renewalsFailed().length).toBeGreaterThan(0);
    expect(owner.renewalsFailed()[0]).toMatchObject({
      level: "warn",
      queue: "webhook_deliveries",
      error: "connection refused",
    });
    release.resolve();
    await owner.loop.idle();
    expect(await claims()).toEqual([{ seq, status: "delivered", claimed_by: null, claimed_until_ms: null }]);
    // Only the other loop's attempt is in the delivery log: the owner recorded nothing over it.
    const logged = await db.selectFrom("webhook_delivery_attempts").select("delivery_seq").execute();
    expect(logged).toEqual([{ delivery_seq: seq }]);
    expect([...owner.errors, ...other.errors]).toEqual([]);
  });

  it("run out under their own loop: it claims the row again without a second attempt, and counts it once", async () => {
    await dueDeliveries(1);
    const outbox = new SqlDeliveryOutbox(db, dialect);
    const claimed: number[][] = [];
    const watched: DeliveryOutbox = {
      ...renewingWith(outbox, () => Promise.reject(new Error("connection refused"))),
      claimDue: async (claim) => {
        const rows = await outbox.claimDue(claim);
        claimed.push(rows.map((row) => row.seq));
        return rows;
      },
    };
    let claimNow = Date.now();
    const release = hold();
    const owner = startLoop("owner", watched, { hold: release.promise, claimClock: { now: () => claimNow } });
    await owner.loop.start();
    await until(async () => owner.attempted.length === 1, "the attempt");
    // The lease runs out unrenewed, and the loop, with slots free, finds the row due again.
    claimNow += 2 * LEASE_MS;
    await until(async () => claimed.filter((seqs) => seqs.length > 0).length === 2, "the second claim");

    expect(owner.attempted).toHaveLength(1);
    expect(owner.counted).toEqual([{ queue: "webhook_deliveries", rows: 1 }]);
    release.resolve();
    await owner.loop.idle();
    expect((await claims()).map((row) => row.status)).toEqual(["delivered"]);
    expect(owner.errors).toEqual([]);
  });
});

describe("a loop's failures", () => {
  it("are logged by the loop, naming its queue and the row: a queue it cannot read, an outcome it cannot record", async () => {
    await dueDeliveries(1);
    const outbox = new SqlDeliveryOutbox(db, dialect);
    let reads = 0;
    // The first read of the queue fails (the database is unreachable); the next ones work.
    const flaky: DeliveryOutbox = {
      ...renewingWith(outbox, (claimant, seqs, untilMs) => outbox.renewClaims(claimant, seqs, untilMs)),
      claimDue: (claim) => (++reads === 1 ? Promise.reject(new Error("connection refused")) : outbox.claimDue(claim)),
      // Its outcome cannot be recorded either: the attempt fails after the delivery was made.
      recordAttempt: () => Promise.reject(new Error("connection reset")),
    };
    const loop = startLoop("owner", flaky);
    await loop.loop.start();
    await until(async () => loop.errors.length >= 2, "both failures logged");
    const [queueFailed, attemptFailed] = loop.errors;
    expect(queueFailed).toMatchObject({
      level: "error",
      msg: "work queue could not be read",
      queue: "webhook_deliveries",
      error: "connection refused",
    });
    expect(attemptFailed).toMatchObject({
      level: "error",
      msg: "work queue outcome could not be recorded",
      queue: "webhook_deliveries",
      error: "connection reset",
    });
    // The row is named, so that its log lines can be followed.
    expect(attemptFailed?.event_id).toEqual(expect.any(String));
    expect(loop.counted[0]).toEqual({ queue: "webhook_deliveries", rows: 1 });
  });
});
