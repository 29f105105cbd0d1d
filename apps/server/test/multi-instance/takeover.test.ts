import { startRelay } from "@pigeonhole/mail-testing";
import { simpleParser } from "mailparser";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import type { CliProcess } from "../support/cli-process.ts";
import { startHangingRelay, startHoldingReceiver } from "./holding-peers.ts";
import { inboxHeaders, startInstances } from "./instances.ts";

// Claims on webhook deliveries and relayed recipients are leases that a live instance renews while its attempts run:
// after kill -9 of the instance holding them, another instance takes its rows over within one lease (10 s by
// default), and a live instance's slow attempt is never taken from it, however many leases it lasts.

/** What an operator may expect at most between kill -9 of an instance and the others finishing its work. */
const TAKEOVER_GOAL_MS = 30_000;
/** The lease of the tests of slow attempts, short so that several go by quickly. */
const SHORT_LEASE_MS = 1_000;

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) {
    await cleanup();
  }
});

/** A connection to the instances' database, to see the claims as they are. */
async function openDatabase(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  cleanups.push(() => client.end());
  return client;
}

/** Resolves once `done()` holds, looking every 50 ms; rejects after `timeoutMs`. */
async function until(done: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) {
      throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}.`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function count(database: pg.Client, table: string, where: string): Promise<number> {
  const { rows } = await database.query<{ n: string }>(`SELECT count(*) AS n FROM ${table} WHERE ${where}`);
  return Number(rows[0]?.n);
}

/** The one claim on `table`'s only row: who holds it and until when. */
async function onlyClaim(database: pg.Client, table: string): Promise<{ by: string | null; untilMs: number }> {
  const { rows } = await database.query<{ claimed_by: string | null; claimed_until_ms: string | null }>(
    `SELECT claimed_by, claimed_until_ms FROM ${table}`,
  );
  expect(rows).toHaveLength(1);
  return { by: rows[0]?.claimed_by ?? null, untilMs: Number(rows[0]?.claimed_until_ms) };
}

/**
 * Kills `victim` with SIGKILL, waits for `finished` (the other instances ending its work, answering when they did),
 * and expects that to be within the goal.
 */
async function killAndAwaitTakeover(victim: CliProcess, work: string, finished: () => Promise<number>): Promise<void> {
  const killedAt = Date.now();
  victim.child.kill("SIGKILL");
  await victim.exited;
  const takeoverMs = (await finished()) - killedAt;
  process.stdout.write(`${work} taken over ${takeoverMs} ms after kill -9 (lease 10 s)\n`);
  expect(takeoverMs).toBeLessThan(TAKEOVER_GOAL_MS);
}

async function createInbox(inboxUrl: string): Promise<string> {
  const response = await fetch(`${inboxUrl}/v0/inboxes`, { method: "POST", headers: inboxHeaders(), body: "{}" });
  expect(response.status).toBe(200);
  return ((await response.json()) as { inbox_id: string }).inbox_id;
}

async function addWebhook(inboxUrl: string, url: string): Promise<void> {
  const response = await fetch(`${inboxUrl}/v0/webhooks`, {
    method: "POST",
    headers: inboxHeaders(),
    body: JSON.stringify({ url, event_types: ["message.sent"] }),
  });
  expect(response.status).toBe(200);
}

async function send(inboxUrl: string, inboxId: string, to: string): Promise<string> {
  const response = await fetch(`${inboxUrl}/v0/inboxes/${encodeURIComponent(inboxId)}/messages`, {
    method: "POST",
    headers: inboxHeaders(),
    body: JSON.stringify({ to: [to], subject: `To ${to}`, text: "Once." }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { message_id: string }).message_id;
}

describe("takeover after kill -9 of the instance holding claims", () => {
  it("delivers its webhook deliveries from another instance within a lease", async () => {
    const receiver = await startHoldingReceiver();
    cleanups.push(receiver.close);
    const instances = await startInstances(0);
    cleanups.push(() => instances.stop());
    const victim = await instances.add();
    const inboxId = await createInbox(victim.inboxUrl);
    await addWebhook(victim.inboxUrl, receiver.url);
    const sent: string[] = [];
    for (let i = 0; i < 5; i++) {
      sent.push(await send(victim.inboxUrl, inboxId, `out-${i}@example.com`));
    }
    // Every delivery is in flight on the victim: the receiver holds its requests unanswered.
    await receiver.waitForRequests(5);
    const survivor = await instances.add();
    receiver.answerFromNowOn();

    await killAndAwaitTakeover(victim, "webhook deliveries", async () => {
      await receiver.waitForAnswered(5, TAKEOVER_GOAL_MS);
      return Math.max(...receiver.answered().map((request) => request.answeredAt ?? 0));
    });

    expect(
      receiver
        .answered()
        .map((request) => request.messageId)
        .sort(),
    ).toEqual([...sent].sort());
    expect(survivor.child.exitCode).toBeNull();
  }, 90_000);

  it("relays its outbound mail from another instance within a lease, to each recipient once", async () => {
    const hanging = await startHangingRelay();
    cleanups.push(hanging.close);
    const relay = await startRelay();
    cleanups.push(() => relay.stop());
    const instances = await startInstances(0);
    cleanups.push(() => instances.stop());
    const victim = await instances.add(["--smtp-relay", hanging.url]);
    const database = await openDatabase(instances.databaseUrl);
    const inboxId = await createInbox(victim.inboxUrl);
    const expected: string[] = [];
    for (let i = 0; i < 8; i++) {
      const to = `to-${i}@example.org`;
      expected.push(`${await send(victim.inboxUrl, inboxId, to)} ${to}`);
    }
    // Every recipient is in flight on the victim: claimed, and waiting for a relay that never greets.
    await hanging.waitForConnections(1);
    await until(
      async () => (await count(database, "recipient_deliveries", "status = 'queued' AND claimed_by IS NOT NULL")) === 8,
      20_000,
      "the victim's claims on every recipient",
    );
    await instances.add(["--smtp-relay", relay.url]);

    await killAndAwaitTakeover(victim, "relayed mail", async () => {
      await until(
        async () => (await count(database, "recipient_deliveries", "status = 'delivered'")) === 8,
        TAKEOVER_GOAL_MS,
        "every recipient relayed by the survivor",
      );
      return Date.now();
    });

    // The victim's attempts never reached a relay: one attempt each, the survivor's.
    expect(await count(database, "recipient_deliveries", "attempts = 1")).toBe(8);
    const got: string[] = [];
    for (const message of await relay.waitForDelivered(8)) {
      got.push(`${(await simpleParser(message.raw)).messageId} ${message.recipient}`);
    }
    expect(got.sort()).toEqual(expected.sort());
  }, 90_000);
});

describe("a live instance's slow attempt", () => {
  it("keeps its webhook delivery however many leases it lasts: the other instance never sends it", async () => {
    const receiver = await startHoldingReceiver();
    cleanups.push(receiver.close);
    const instances = await startInstances(2, ["--claim-lease-ms", String(SHORT_LEASE_MS)]);
    cleanups.push(() => instances.stop());
    const [first, second] = instances.all;
    if (!first || !second) {
      throw new Error("Two instances were started.");
    }
    const database = await openDatabase(instances.databaseUrl);
    const inboxId = await createInbox(first.inboxUrl);
    await addWebhook(first.inboxUrl, receiver.url);
    await send(second.inboxUrl, inboxId, "slow@example.com");
    await receiver.waitForRequests(1);

    const claimed = await onlyClaim(database, "webhook_deliveries");
    // Three leases go by: without renewal the claim would have run out and the other instance, looking twice a
    // second, would have sent the delivery again.
    await until(
      async () => (await onlyClaim(database, "webhook_deliveries")).untilMs > claimed.untilMs + 3 * SHORT_LEASE_MS,
      20_000,
      "three leases of renewals",
    );
    expect((await onlyClaim(database, "webhook_deliveries")).by).toBe(claimed.by);
    expect(receiver.requests()).toHaveLength(1);

    receiver.release();
    await until(
      async () => (await count(database, "webhook_deliveries", "status = 'delivered'")) === 1,
      10_000,
      "the delivery recorded",
    );
    expect(receiver.requests()).toHaveLength(1);
    expect(await count(database, "webhook_delivery_attempts", "status_code = 200")).toBe(1);
  }, 60_000);

  it("keeps its recipient however many leases the relay takes: the other instance never relays it", async () => {
    const hanging = await startHangingRelay();
    cleanups.push(hanging.close);
    const instances = await startInstances(2, [
      "--claim-lease-ms",
      String(SHORT_LEASE_MS),
      "--smtp-relay",
      hanging.url,
    ]);
    cleanups.push(() => instances.stop());
    const [first] = instances.all;
    if (!first) {
      throw new Error("Two instances were started.");
    }
    const database = await openDatabase(instances.databaseUrl);
    const inboxId = await createInbox(first.inboxUrl);
    await send(first.inboxUrl, inboxId, "slow@example.org");
    await hanging.waitForConnections(1);

    const claimed = await onlyClaim(database, "recipient_deliveries");
    await until(
      async () => (await onlyClaim(database, "recipient_deliveries")).untilMs > claimed.untilMs + 3 * SHORT_LEASE_MS,
      20_000,
      "three leases of renewals",
    );
    expect((await onlyClaim(database, "recipient_deliveries")).by).toBe(claimed.by);
    expect(hanging.connections()).toBe(1);
  }, 60_000);
});
