import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { newTestDatabase, testBackend } from "../../test/support/test-database.ts";
import type { ClaimableRows } from "./claimed-rows.ts";
import { claimDueRows, nextUnclaimedDueAt, releaseClaimsOf, releaseEveryClaim } from "./claimed-rows.ts";
import type { ServerDatabase } from "./database.ts";
import { openPostgres } from "./postgres/open-postgres.ts";
import { postgresDialect } from "./postgres/postgres-dialect.ts";
import type { RecipientDeliveryStatus } from "./schema.ts";
import type { SqlDialect } from "./sql-dialect.ts";
import { openSqlite } from "./sqlite/open-sqlite.ts";
import { sqliteDialect } from "./sqlite/sqlite-dialect.ts";

const ROWS = { table: "recipient_deliveries", waiting: ["queued", "delayed"] } satisfies ClaimableRows;
const NOW = Date.parse("2026-11-25T10:00:00.000Z");

let db: ServerDatabase;
let dialect: SqlDialect;
beforeAll(async () => {
  const location = await newTestDatabase();
  [db, dialect] =
    testBackend() === "postgres"
      ? [await openPostgres(location, { poolSize: 4, onConnectionError: () => {} }), postgresDialect]
      : [await openSqlite(location), sqliteDialect];
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
});
