import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openTestDatabase } from "../../test/support/test-database.ts";
import type { ClaimableRows } from "./claimed-rows.ts";
import {
  claimDueRows,
  nextUnclaimedDueAt,
  queueDepthOf,
  releaseClaimsOf,
  releaseEveryClaim,
  renewClaimsOf,
} from "./claimed-rows.ts";
import type { ServerDatabase } from "./database.ts";
import { recordMailAttempt } from "./inbox/mail-queue.ts";
import type { RecipientDeliveryStatus } from "./schema.ts";
import type { SqlDialect } from "./sql-dialect.ts";

const ROWS = { table: "recipient_deliveries", waiting: ["queued", "delayed"] } satisfies ClaimableRows;
const NOW = Date.parse("2026-11-25T10:00:00.000Z");

let db: ServerDatabase;
let dialect: SqlDialect;
beforeAll(async () => {
  [db, dialect] = await openTestDatabase(4);
});
afterAll(() => db.destroy());
beforeEach(() => db.deleteFrom("recipient_deliveries").execute());

const addRow = async (
  address: string,
  status: RecipientDeliveryStatus,
  dueAtMs: number | null,
  claim: { by: string; untilMs: number } | null = null,
) => {
  await db
    .insertInto("recipient_deliveries")
    .values({
      pod_id: "pod",
      inbox_id: "inbox@example.test",
      message_id: `<${address}>`,
      address,
      status,
      smtp_reply: null,
      attempts: 0,
      updated_at: new Date(NOW).toISOString(),
      next_attempt_at_ms: dueAtMs,
      claimed_by: claim?.by ?? null,
      claimed_until_ms: claim?.untilMs ?? null,
    })
    .execute();
};

const claim = (claimant: string, limit: number, nowMs = NOW) =>
  claimDueRows(db, dialect, ROWS, { claimant, dueMs: nowMs, nowMs, untilMs: nowMs + 60_000, limit }, (update) =>
    update.returning(["address", "claimed_by", "claimed_until_ms"]).execute(),
  ).then((rows) => rows.map((row) => row.address).toSorted());

describe("claimed rows", () => {
  it("claim the waiting rows that are due, oldest first, and no row twice when instances claim at once", async () => {
    for (let i = 0; i < 20; i++) {
      await addRow(`r${String(i).padStart(2, "0")}@example.test`, i % 2 ? "delayed" : "queued", NOW - 1000 + i);
    }
    await addRow("later@example.test", "queued", NOW + 1);
    await addRow("done@example.test", "delivered", null);

    expect(await claim("first", 3)).toEqual(["r00@example.test", "r01@example.test", "r02@example.test"]);
    const [a, b, c] = await Promise.all([claim("a", 20), claim("b", 20), claim("c", 20)]);
    const all = [...(a ?? []), ...(b ?? []), ...(c ?? [])].toSorted();
    expect(all).toEqual(Array.from({ length: 17 }, (_, i) => `r${String(i + 3).padStart(2, "0")}@example.test`));
    const held = await db.selectFrom("recipient_deliveries").select(["claimed_by", "claimed_until_ms"]).execute();
    expect(held.filter((row) => row.claimed_until_ms === NOW + 60_000)).toHaveLength(20);
    expect(await claim("d", 20)).toEqual([]);
  });

  it("leave a held row alone until its claim runs out or is handed back", async () => {
    await addRow("held@example.test", "queued", NOW - 10, { by: "other", untilMs: NOW + 5_000 });
    await addRow("lapsed@example.test", "delayed", NOW - 5, { by: "gone", untilMs: NOW - 1 });
    await addRow("free@example.test", "queued", NOW + 2_000);

    expect(await nextUnclaimedDueAt(db, ROWS, NOW)).toBe(NOW - 5);
    expect(await claim("me", 10)).toEqual(["lapsed@example.test"]);
    expect(await nextUnclaimedDueAt(db, ROWS, NOW)).toBe(NOW + 2_000);

    await releaseClaimsOf(db, ROWS, "other");
    expect(await nextUnclaimedDueAt(db, ROWS, NOW)).toBe(NOW - 10);
    expect(await claim("me", 10)).toEqual(["held@example.test"]);

    await releaseEveryClaim(db, ROWS);
    const claimants = await db.selectFrom("recipient_deliveries").select("claimed_by").execute();
    expect(claimants.every((row) => row.claimed_by === null)).toBe(true);
    expect(await claim("me", 10, NOW + 2_000)).toEqual([
      "free@example.test",
      "held@example.test",
      "lapsed@example.test",
    ]);
  });

  it("renew, in one statement, the claimant's claims on the rows it names and no other", async () => {
    await addRow("mine-a@example.test", "queued", NOW - 10, { by: "me", untilMs: NOW + 1_000 });
    await addRow("mine-b@example.test", "delayed", NOW - 10, { by: "me", untilMs: NOW + 2_000 });
    await addRow("mine-done@example.test", "queued", NOW - 10, { by: "me", untilMs: NOW + 1_000 });
    await addRow("theirs@example.test", "queued", NOW - 10, { by: "other", untilMs: NOW + 1_000 });
    const seqOf = async (address: string) =>
      (
        await db
          .selectFrom("recipient_deliveries")
          .select("seq")
          .where("address", "=", address)
          .executeTakeFirstOrThrow()
      ).seq;
    const named = [
      await seqOf("mine-a@example.test"),
      await seqOf("mine-b@example.test"),
      await seqOf("theirs@example.test"),
    ];

    await renewClaimsOf(db, ROWS, "me", named, NOW + 10_000);
    const held = await db
      .selectFrom("recipient_deliveries")
      .select(["address", "claimed_by", "claimed_until_ms"])
      .orderBy("address")
      .execute();
    expect(held).toEqual([
      { address: "mine-a@example.test", claimed_by: "me", claimed_until_ms: NOW + 10_000 },
      { address: "mine-b@example.test", claimed_by: "me", claimed_until_ms: NOW + 10_000 },
      // Not named: its attempt is over (its outcome could not be recorded), so its claim runs out and it is retried.
      { address: "mine-done@example.test", claimed_by: "me", claimed_until_ms: NOW + 1_000 },
      { address: "theirs@example.test", claimed_by: "other", claimed_until_ms: NOW + 1_000 },
    ]);
  });

  it("record no outcome over a claim another instance took once the owner's lease ran out", async () => {
    await addRow("slow@example.test", "queued", NOW - 10);
    expect(await claim("owner", 1)).toEqual(["slow@example.test"]);
    // The owner's lease was not renewed: another instance takes the recipient a minute later.
    expect(await claim("other", 1, NOW + 60_001)).toEqual(["slow@example.test"]);
    const { seq } = await db.selectFrom("recipient_deliveries").select("seq").executeTakeFirstOrThrow();
    const outcome = (reply: string) => ({
      status: "delivered" as const,
      smtpReply: reply,
      attempts: 1,
      updatedAt: new Date(NOW + 60_002).toISOString(),
      nextAttemptAtMs: null,
    });

    expect(await recordMailAttempt(db, seq, "owner", outcome("250 from the owner"))).toBe(false);
    const row = () =>
      db.selectFrom("recipient_deliveries").select(["status", "smtp_reply", "claimed_by"]).executeTakeFirstOrThrow();
    expect(await row()).toEqual({ status: "queued", smtp_reply: null, claimed_by: "other" });
    expect(await recordMailAttempt(db, seq, "other", outcome("250 from the other"))).toBe(true);
    expect(await row()).toEqual({ status: "delivered", smtp_reply: "250 from the other", claimed_by: null });
  });
});

describe("a queue's depth", () => {
  it("counts the waiting rows and, of those, the due ones (claimed or not), leaving out those that are done", async () => {
    await addRow("due@example.test", "queued", NOW - 1);
    await addRow("due-claimed@example.test", "delayed", NOW, { by: "other", untilMs: NOW + 60_000 });
    await addRow("later@example.test", "delayed", NOW + 60_000);
    await addRow("delivered@example.test", "delivered", null);
    await addRow("bounced@example.test", "bounced", null);
    expect(await queueDepthOf(db, ROWS, NOW)).toEqual({ waiting: 3, due: 2 });
    expect(await queueDepthOf(db, ROWS, NOW + 60_000)).toEqual({ waiting: 3, due: 3 });
    await db.deleteFrom("recipient_deliveries").execute();
    expect(await queueDepthOf(db, ROWS, NOW)).toEqual({ waiting: 0, due: 0 });
  });
});
