import { DatabaseSync } from "node:sqlite";
import type { SqliteDatabase } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { nodeSqliteDatabase } from "./node-sqlite-driver.ts";

let database: SqliteDatabase;
beforeEach(() => {
  database = nodeSqliteDatabase(new DatabaseSync(":memory:"), 2);
  database.prepare("create table t (id integer primary key, name text, data blob)").run([]);
});
afterEach(() => database.close());

describe("node:sqlite as Kysely's SQLite database", () => {
  it("reads rows as plain objects keyed by column, values and bytes intact", () => {
    database.prepare("insert into t (name, data) values (?, ?)").run(["ada", new Uint8Array([1, 2, 3])]);
    const rows = database.prepare("select id, name, data from t").all([]);
    expect(rows).toEqual([{ id: 1, name: "ada", data: new Uint8Array([1, 2, 3]) }]);
    expect(Object.getPrototypeOf(rows[0])).toBe(Object.prototype);
  });

  it("keys rows by any column name, as SQLite spells it, the last of a repeated name winning", () => {
    const row = database
      .prepare(`select 1 as "it's ""quoted""", 2 as "a\\b", 3 as "line
break", 4 as "€ ü", 5 as "constructor", 6 as "1", 7 as x, 8 as x`)
      .all([])[0];
    expect(row).toEqual({ 'it\'s "quoted"': 1, "a\\b": 2, "line\nbreak": 3, "€ ü": 4, constructor: 5, "1": 6, x: 8 });
    expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
  });

  it("leaves the prototype of a row alone when a column is named __proto__", () => {
    const row = database.prepare(`select 1 as "__proto__", 2 as y`).all([])[0];
    expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
    expect(row).toEqual({ y: 2 });
  });

  it("says which statements return rows", () => {
    expect(database.prepare("insert into t (name) values (?)").reader).toBe(false);
    expect(database.prepare("insert into t (name) values (?) returning id").reader).toBe(true);
    expect(database.prepare("select name from t").reader).toBe(true);
  });

  it("reports what a write changed", () => {
    expect(database.prepare("insert into t (name) values (?)").run(["ada"])).toEqual({
      changes: 1,
      lastInsertRowid: 1,
    });
  });

  it("binds undefined as NULL", () => {
    database.prepare("insert into t (name) values (?)").run([undefined]);
    expect(database.prepare("select name from t").all([])).toEqual([{ name: null }]);
  });

  it("refuses values SQLite cannot store rather than binding something else", () => {
    const insert = database.prepare("insert into t (name) values (?)");
    expect(() => insert.run([new Date(0)])).toThrow(TypeError);
    expect(() => insert.run([true])).toThrow(TypeError);
    expect(database.prepare("select count(*) as n from t").all([])).toEqual([{ n: 0 }]);
  });

  it("streams rows as the same plain objects", () => {
    const insert = database.prepare("insert into t (name) values (?)");
    insert.run(["ada"]);
    insert.run(["bob"]);
    expect([...database.prepare("select name from t order by id").iterate([])]).toEqual([
      { name: "ada" },
      { name: "bob" },
    ]);
  });

  it("reuses a statement by its SQL text, within a bounded cache", () => {
    const select = database.prepare("select name from t");
    expect(database.prepare("select name from t")).toBe(select);
    database.prepare("select id from t");
    database.prepare("select data from t");
    expect(database.prepare("select name from t")).not.toBe(select);
  });

  it("follows a cached `select *` through a change of the table's columns", () => {
    database.prepare("insert into t (name) values (?)").run(["ada"]);
    const selectAll = database.prepare("select * from t");
    expect(selectAll.all([])).toEqual([{ id: 1, name: "ada", data: null }]);
    database.prepare("alter table t add column note text").run([]);
    expect(database.prepare("select * from t").all([])).toEqual([{ id: 1, name: "ada", data: null, note: null }]);
  });
});
