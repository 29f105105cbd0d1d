import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { opaqueParameters } from "./opaque-parameters.ts";

describe("opaqueParameters", () => {
  it("puts every parameter in a scalar subquery, keeping numbered ones", () => {
    expect(opaqueParameters('select * from "t" where "a" = ? and "b" in (?, ?1) limit ? offset ?20')).toBe(
      'select * from "t" where "a" = (select ?) and "b" in ((select ?), (select ?1)) limit (select ?) offset (select ?20)',
    );
  });

  it("leaves question marks in strings, quoted identifiers and comments alone", () => {
    const sql = `select 'why?', 'it''s ?', "odd?name", \`q?\`, [x?] -- really?\n from t /* ? */ where a = ?`;
    expect(opaqueParameters(sql)).toBe(
      `select 'why?', 'it''s ?', "odd?name", \`q?\`, [x?] -- really?\n from t /* ? */ where a = (select ?)`,
    );
  });

  it("gives the same results as the statement it rewrites", () => {
    const db = new Database(":memory:");
    db.exec(`create table t (id integer primary key, owner text, n integer, at text, data blob);
      create index t_by_owner on t (owner, at desc, id);`);
    const insert = db.prepare(opaqueParameters("insert into t (owner, n, at, data) values (?, ?, ?, ?) returning id"));
    for (let i = 0; i < 20; i++) {
      insert.get(i % 2 ? "ada" : "bob", i, `2026-11-${String(10 + i).padStart(2, "0")}`, Buffer.from([i]));
    }
    const queries: [string, unknown[]][] = [
      [
        "select * from t where owner = ? and (at, id) < (?, ?) order by at desc, id desc limit ?",
        ["ada", "2026-11-25", 99, 3],
      ],
      ["select * from t where n > ? and n <= ? order by id limit ? offset ?", ["5", 12, 4, 1]],
      ["select id from t where owner in (select value from json_each(?)) and data = ?", ['["bob"]', Buffer.from([4])]],
      ["select count(*) as c, ? is null as missing from t where at like ?", [null, "2026-11-1%"]],
    ];
    for (const [sql, params] of queries) {
      const rows = db.prepare(sql).all(params);
      expect(rows.length).toBeGreaterThan(0);
      expect(db.prepare(opaqueParameters(sql)).all(params)).toEqual(rows);
    }
    const upsert = "insert into t (id, owner, n, at) values (?, ?, ?, ?) on conflict (id) do update set n = n + ?";
    db.prepare(opaqueParameters(upsert)).run(1, "ada", 0, "x", 100);
    expect(db.prepare("select n from t where id = 1").get()).toEqual({ n: 100 });
  });
});
