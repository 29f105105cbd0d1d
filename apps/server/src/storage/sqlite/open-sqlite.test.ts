import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import type { ServerDatabase } from "../database.ts";
import { openSqlite } from "./open-sqlite.ts";

const dir = mkdtempSync(join(tmpdir(), "pigeonhole-database-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A setting's value: the single column of the pragma's single row. */
const pragma = async (db: ServerDatabase, name: string) => {
  const [row] = (await sql.raw<Record<string, unknown>>(`pragma ${name}`).execute(db)).rows;
  return row && Object.values(row)[0];
};

describe("the SQLite database", () => {
  it("opens a file in WAL mode, syncing at checkpoints every 4,000 pages, with foreign keys and a 16 MB page cache", async () => {
    const db = await openSqlite(join(dir, "settings.db"));
    try {
      expect(await pragma(db, "journal_mode")).toBe("wal");
      // 1 is NORMAL: under WAL a commit survives the process being killed without a sync of its own.
      expect(await pragma(db, "synchronous")).toBe(1);
      expect(await pragma(db, "foreign_keys")).toBe(1);
      expect(await pragma(db, "cache_size")).toBe(-16000);
      expect(await pragma(db, "wal_autocheckpoint")).toBe(4000);
      expect(await pragma(db, "busy_timeout")).toBe(5000);
    } finally {
      await db.destroy();
    }
  });

  it("waits for another process's write to finish instead of failing at once", async () => {
    const file = join(dir, "shared.db");
    const db = await openSqlite(file);
    try {
      // Another process takes the write lock and holds it for half a second.
      const holder = spawn(
        process.execPath,
        [
          "--input-type=module",
          "-e",
          `import { DatabaseSync } from "node:sqlite";
           const other = new DatabaseSync(${JSON.stringify(file)});
           other.exec("begin immediate; insert into meta (key, value) values ('holder', 'x')");
           process.stdout.write("locked\\n");
           Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 500);
           other.exec("commit");`,
        ],
        { stdio: ["ignore", "pipe", "inherit"] },
      );
      await once(holder.stdout, "data");
      await db.insertInto("meta").values({ key: "waiter", value: "y" }).execute();
      await once(holder, "exit");
      const keys = await db.selectFrom("meta").select("key").where("key", "in", ["holder", "waiter"]).execute();
      expect(keys.map((row) => row.key).sort()).toEqual(["holder", "waiter"]);
    } finally {
      await db.destroy();
    }
  }, 20_000);
});
