import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import type { Relay } from "@pigeonhole/mail-testing";
import { startRelay } from "@pigeonhole/mail-testing";
import { createTestDatabase } from "@pigeonhole/postgres-testing/vitest";
import { simpleParser } from "mailparser";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CliProcess } from "../../../test/support/cli-process.ts";
import { runCli, TEST_KEYS } from "../../../test/support/cli-process.ts";
import { testBackend } from "../../../test/support/test-database.ts";
import { expectData, inboxClient } from "../../../test/support/test-server.ts";

// kill -9 of a server relaying mail, then a restart: no recipient is lost, and none gets a message twice unless the
// process died between the relay's answer and its commit.

const dir = mkdtempSync(join(tmpdir(), "pigeonhole-outbound-crash-"));
let relay: Relay;
beforeAll(async () => {
  relay = await startRelay();
});
afterAll(async () => {
  await relay.stop();
  rmSync(dir, { recursive: true, force: true });
});

const SENDS = 30;

/**
 * The recipients still waiting for the relay after the process died, and among them those whose attempt may have
 * been under way: claimed, with no outcome recorded. Only these may get the message twice (the relay accepted it,
 * and the process died before committing its answer); which ones they are is read from the database, so the test
 * does not depend on where the kill fell.
 */
async function waiting(database: string): Promise<{ all: number; inDoubt: Set<string> }> {
  const query =
    "SELECT message_id, address, claimed_by FROM recipient_deliveries WHERE status IN ('queued', 'delayed')";
  let rows: { message_id: string; address: string; claimed_by: string | null }[];
  if (testBackend() === "postgres") {
    const client = new pg.Client({ connectionString: database });
    await client.connect();
    try {
      rows = (await client.query<(typeof rows)[number]>(query)).rows;
    } finally {
      await client.end();
    }
  } else {
    const sqlite = new DatabaseSync(database);
    try {
      rows = sqlite.prepare(query).all() as typeof rows;
    } finally {
      sqlite.close();
    }
  }
  const claimed = rows.filter((row) => row.claimed_by !== null);
  return { all: rows.length, inDoubt: new Set(claimed.map((row) => `${row.message_id} ${row.address}`)) };
}

describe("outbound mail across a crash", () => {
  it("delivers every recipient after kill -9 and a restart, none twice outside the in-doubt window", async () => {
    const database = testBackend() === "postgres" ? await createTestDatabase() : join(dir, "server.db");
    const args = [
      "--database",
      database,
      "--dev-keys",
      "--inbox-port",
      "0",
      "--forum-port",
      "0",
      "--no-smtp",
      "--quiet",
      "--smtp-relay",
      relay.url,
      "--smtp-retry-delays",
      "200,200,200",
      // Short, so that on PostgreSQL the restarted instance takes over the dead one's claims soon.
      "--smtp-relay-claim-ms",
      "2000",
      "--inbox-requests-per-minute",
      "1000000",
    ];
    const first: CliProcess = await runCli(args);
    const inbox = inboxClient(first.inboxUrl, TEST_KEYS.inbox);
    const sender = expectData(await inbox.POST("/v0/inboxes", { body: { username: "crash-relay" } })).inbox_id;
    const acknowledged: { messageId: string; address: string }[] = [];
    const sends = Array.from({ length: 3 }, async (_, worker) => {
      for (let i = worker; i < SENDS; i += 3) {
        const address = `load-${i}@example.org`;
        const result = await inbox
          .POST("/v0/inboxes/{inbox_id}/messages", {
            params: { path: { inbox_id: sender } },
            body: { to: address, subject: `Load ${i}`, text: "Once." },
          })
          .catch(() => undefined);
        if (result?.data) {
          acknowledged.push({ messageId: result.data.message_id, address });
        }
      }
    });
    // Killed while the relay is busy with the load: after a few deliveries and more acknowledged sends, before the
    // last send.
    const deadline = Date.now() + 10_000;
    while (((await relay.delivered()).length < 5 || acknowledged.length <= 5) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    first.child.kill("SIGKILL");
    await first.exited;
    await Promise.all(sends);
    expect(acknowledged.length).toBeGreaterThan(5);
    const left = await waiting(database);
    // The crash left mail to send: the restart has work to do.
    expect(left.all).toBeGreaterThan(0);

    const second = await runCli(args);
    try {
      const again = inboxClient(second.inboxUrl, TEST_KEYS.inbox);
      // Every send that committed is in the list, acknowledged or not (the answer may have been lost in the crash).
      const sent = expectData(
        await again.GET("/v0/inboxes/{inbox_id}/messages", {
          params: { path: { inbox_id: sender }, query: { limit: 100 } },
        }),
      ).messages;
      expect(sent.map((message) => message.message_id)).toEqual(
        expect.arrayContaining(acknowledged.map((a) => a.messageId)),
      );
      const expected = sent.map((message) => `${message.message_id} ${message.to[0]}`);
      // Counting messages is not enough: an in-doubt duplicate can make up the number while a recipient the dead
      // instance held still waits for its claim to run out. Wait for every recipient by name.
      let counts = new Map<string, number>();
      const deliveredCounts = async () => {
        const tally = new Map<string, number>();
        for (const message of await relay.delivered()) {
          const parsed = await simpleParser(message.raw);
          const key = `${parsed.messageId} ${message.recipient}`;
          tally.set(key, (tally.get(key) ?? 0) + 1);
        }
        return tally;
      };
      const until = Date.now() + 30_000;
      while (!expected.every((key) => counts.has(key)) && Date.now() < until) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        counts = await deliveredCounts();
      }
      // Let a late duplicate show up.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      counts = await deliveredCounts();
      expect([...counts.keys()].sort()).toEqual([...expected].sort());
      for (const [key, count] of counts) {
        expect(count, key).toBeLessThanOrEqual(left.inDoubt.has(key) ? 2 : 1);
      }
      // The relay's acceptance is recorded right after its answer; every recipient ends delivered.
      const statuses = async () =>
        Promise.all(
          sent.map(async (message) => {
            const full = expectData(
              await again.GET("/v0/inboxes/{inbox_id}/messages/{message_id}", {
                params: { path: { inbox_id: sender, message_id: message.message_id } },
              }),
            );
            return full.deliveries.map((d) => d.status).join(",");
          }),
        );
      let seen = await statuses();
      while (seen.some((status) => status !== "delivered") && Date.now() < until + 5_000) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        seen = await statuses();
      }
      expect(seen).toEqual(sent.map(() => "delivered"));
    } finally {
      second.child.kill("SIGTERM");
      await second.exited;
    }
  }, 90_000);
});
