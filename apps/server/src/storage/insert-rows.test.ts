import type { KyselyPlugin } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase } from "../../test/support/test-database.ts";
import type { ServerDatabase } from "./database.ts";
import { insertRows } from "./insert-rows.ts";

let db: ServerDatabase;
beforeAll(async () => {
  [db] = await openTestDatabase(2);
});
afterAll(() => db.destroy());

const putSettings = insertRows("meta", (setting: { name: string; setting: string }) => ({
  key: setting.name,
  value: setting.setting,
}));

const settings = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, i) => ({ name: `${prefix}${String(i).padStart(2, "0")}`, setting: `v${i}` }));

/** The database, counting each statement it runs. */
function countingStatements(): { db: ServerDatabase; statements: () => number } {
  let statements = 0;
  const counter: KyselyPlugin = {
    transformQuery: (args) => args.node,
    transformResult: async (args) => {
      statements += 1;
      return args.result;
    },
  };
  return { db: db.withPlugin(counter), statements: () => statements };
}

describe("insertRows", () => {
  it("writes every row, as its columns, when the rows take more than one statement", async () => {
    const counting = countingStatements();
    await putSettings(counting.db, settings("many-", 23));

    const written = await db
      .selectFrom("meta")
      .select(["key", "value"])
      .where("key", "like", "many-%")
      .orderBy("key")
      .execute();
    expect(written).toEqual(settings("many-", 23).map((row) => ({ key: row.name, value: row.setting })));
    expect(counting.statements()).toBeGreaterThan(1);
  });

  it("runs no statement for no rows", async () => {
    const counting = countingStatements();
    await putSettings(counting.db, []);
    expect(counting.statements()).toBe(0);
  });
});
