import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newTestDatabase, testBackend } from "../../test/support/test-database.ts";
import type { ServerDatabase } from "./database.ts";
import { openPostgres } from "./postgres/open-postgres.ts";
import { postgresDialect } from "./postgres/postgres-dialect.ts";
import { PreparedInsert, PreparedQuery } from "./prepared-query.ts";
import { openSqlite } from "./sqlite/open-sqlite.ts";
import { sqliteDialect } from "./sqlite/sqlite-dialect.ts";

let db: ServerDatabase;
beforeAll(async () => {
  const location = await newTestDatabase();
  db =
    testBackend() === "postgres"
      ? await openPostgres(location, { poolSize: 2, onConnectionError: () => {} })
      : await openSqlite(location);
});
afterAll(() => db.destroy());

const putMeta = new PreparedQuery((d, p: { key: string; value: string }) =>
  d.insertInto("meta").values({ key: p.key, value: p.value }),
);
const countMeta = new PreparedQuery((d, p: { prefix: string }) =>
  d
    .selectFrom("meta")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("key", "like", p.prefix),
);

describe("PreparedQuery", () => {
  it("builds the query once and binds each call's values", async () => {
    let builds = 0;
    const metaValue = new PreparedQuery((d, p: { key: string }) => {
      builds += 1;
      return d.selectFrom("meta").select("value").where("key", "=", p.key);
    });
    await putMeta.execute(db, { key: "colour", value: "blue" });
    await putMeta.execute(db, { key: "shape", value: "round" });

    expect(await metaValue.first(db, { key: "colour" })).toEqual({ value: "blue" });
    expect(await metaValue.first(db, { key: "shape" })).toEqual({ value: "round" });
    expect(await metaValue.first(db, { key: "size" })).toBeUndefined();
    expect(builds).toBe(1);
  });

  it("keeps the values written into the query itself", async () => {
    const limited = new PreparedQuery((d, p: { limit: number }) =>
      d.selectFrom("meta").select("key").where("key", "in", ["a1", "a2", "a3"]).orderBy("key").limit(p.limit),
    );
    for (const key of ["a1", "a2", "a3", "a4"]) {
      await putMeta.execute(db, { key, value: "x" });
    }
    expect(await limited.rows(db, { limit: 2 })).toEqual([{ key: "a1" }, { key: "a2" }]);
    expect(await limited.rows(db, { limit: 5 })).toEqual([{ key: "a1" }, { key: "a2" }, { key: "a3" }]);
  });

  it("answers the rows a write changed", async () => {
    const rename = new PreparedQuery((d, p: { from: string; to: string }) =>
      d.updateTable("meta").set({ value: p.to }).where("value", "=", p.from),
    );
    await putMeta.execute(db, { key: "b1", value: "old" });
    await putMeta.execute(db, { key: "b2", value: "old" });
    expect((await rename.execute(db, { from: "old", to: "new" })).numAffectedRows).toBe(2n);
    expect((await rename.execute(db, { from: "old", to: "new" })).numAffectedRows).toBe(0n);
  });

  it("reads outside a transaction at once, beside one in progress, and sees its writes once it commits", async () => {
    let commit = () => {};
    const committed = new Promise<void>((resolve) => {
      commit = resolve;
    });
    let wrote = () => {};
    const written = new Promise<void>((resolve) => {
      wrote = resolve;
    });
    const transaction = db.transaction().execute(async (trx) => {
      await putMeta.execute(trx, { key: "tx1", value: "x" });
      wrote();
      await committed;
      await putMeta.execute(trx, { key: "tx2", value: "x" });
    });
    await written;
    // PostgreSQL answers from another connection of the pool; SQLite from its reading connection, under WAL.
    expect((await countMeta.first(db, { prefix: "tx%" }))?.count).toBe(0);
    commit();
    await transaction;
    expect((await countMeta.first(db, { prefix: "tx%" }))?.count).toBe(2);
  });

  it("inside a transaction, sees its writes, counts the rows changed, fails a statement as the database does", async () => {
    const dialect = testBackend() === "postgres" ? postgresDialect : sqliteDialect;
    const rename = new PreparedQuery((d, p: { from: string; to: string }) =>
      d.updateTable("meta").set({ value: p.to }).where("key", "like", "rb%").where("value", "=", p.from),
    );
    const outcome = await db
      .transaction()
      .execute(async (trx) => {
        await putMeta.execute(trx, { key: "rb1", value: "x" });
        await putMeta.execute(trx, { key: "rb2", value: "x" });
        expect(Number((await countMeta.first(trx, { prefix: "rb%" }))?.count)).toBe(2);
        expect((await rename.execute(trx, { from: "x", to: "y" })).numAffectedRows).toBe(2n);
        const duplicate = await putMeta.execute(trx, { key: "rb1", value: "z" }).catch((error: unknown) => error);
        expect(dialect.isUniqueViolation(duplicate)).toBe(true);
        throw new Error("rolled back");
      })
      .catch((error: unknown) => error);

    expect(outcome).toEqual(new Error("rolled back"));
    expect(Number((await countMeta.first(db, { prefix: "rb%" }))?.count)).toBe(0);
  });
});

describe("PreparedInsert", () => {
  it("writes every row with its own values, ten to a statement, each row count built once", async () => {
    const counts: number[] = [];
    const putMetas = new PreparedInsert((d, rows: readonly { key: string; value: string }[]) => {
      counts.push(rows.length);
      return d.insertInto("meta").values(rows.map((row) => ({ key: row.key, value: row.value })));
    });
    const rows = (prefix: string, count: number) =>
      Array.from({ length: count }, (_, i) => ({ key: `${prefix}${String(i).padStart(2, "0")}`, value: `v${i}` }));
    await putMetas.execute(db, rows("many-", 23));
    await putMetas.execute(db, rows("more-", 13));
    await putMetas.execute(db, []);

    const written = await db
      .selectFrom("meta")
      .select(["key", "value"])
      .where("key", "like", "many-%")
      .orderBy("key")
      .execute();
    expect(written).toEqual(rows("many-", 23));
    expect((await countMeta.first(db, { prefix: "more-%" }))?.count).toBe(13);
    expect(counts.sort((a, b) => a - b)).toEqual([3, 10]);
  });
});
