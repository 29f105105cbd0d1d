import type { DatabaseSync, SQLInputValue, SQLOutputValue, StatementSync } from "node:sqlite";
import type { SqliteDatabase, SqliteStatement } from "kysely";
import { HTML_TEXT_FUNCTION, htmlText } from "../inbox/search-text.ts";
import type { StatementRunner } from "../prepared-query.ts";

type Row = Record<string, SQLOutputValue>;

/**
 * Node's built-in SQLite database in the shape Kysely's `SqliteDialect` expects: statements take their parameters as
 * one array and say whether they return rows.
 *
 * Prepared statements are reused by their SQL text: Kysely prepares every query it runs, and preparing costs more than
 * running a small query. The server issues a small, fixed set of query shapes, so a bounded cache holds them all.
 * Reuse is safe because the dialect runs one statement at a time.
 */
export function nodeSqliteDatabase(database: DatabaseSync, capacity = 512): SqliteDatabase {
  const statements = new Map<string, SqliteStatement>();
  // The message search index's triggers read an html body's words through this function (migration 0011).
  database.function(HTML_TEXT_FUNCTION, { deterministic: true }, (html) =>
    htmlText(typeof html === "string" ? html : null),
  );
  return {
    close: () => database.close(),
    prepare(sql) {
      let statement = statements.get(sql);
      if (!statement) {
        statement = adapt(database.prepare(sql));
        if (statements.size >= capacity) {
          // Evict the oldest entry; a Map iterates in insertion order.
          const oldest = statements.keys().next().value;
          if (oldest !== undefined) {
            statements.delete(oldest);
          }
        }
        statements.set(sql, statement);
      }
      return statement;
    },
  };
}

/** Runs a compiled query on `database` as Kysely's SQLite connection does, without its promises. */
export function sqliteStatementRunner(database: SqliteDatabase): StatementRunner {
  return ({ sql, parameters }) => {
    const statement = database.prepare(sql);
    if (statement.reader) {
      return { rows: statement.all(parameters) };
    }
    const { changes, lastInsertRowid } = statement.run(parameters);
    return {
      insertId: lastInsertRowid == null ? undefined : BigInt(lastInsertRowid),
      numAffectedRows: changes == null ? undefined : BigInt(changes),
      rows: [],
    };
  };
}

function adapt(statement: StatementSync): SqliteStatement {
  let names = columnNames(statement);
  let build = rowBuilder(names);
  // node:sqlite builds each row object in V8's slow dictionary mode; rows read as arrays and built here, with the
  // same keys in the same order, share one fast shape.
  statement.setReturnArrays(true);
  const toRow = (values: readonly SQLOutputValue[]): Row => {
    if (values.length !== names.length) {
      // The schema changed under a `select *` since the statement was prepared; SQLite re-prepared it.
      names = columnNames(statement);
      build = rowBuilder(names);
    }
    return build(values);
  };
  return {
    // A select, or a write with `returning`, has result columns.
    reader: names.length > 0,
    all: (parameters) => asArrays(statement.all(...bindable(parameters))).map(toRow),
    run: (parameters) => statement.run(...bindable(parameters)),
    *iterate(parameters) {
      for (const values of statement.iterate(...bindable(parameters))) {
        yield toRow(values as unknown as SQLOutputValue[]);
      }
    },
  };
}

const columnNames = (statement: StatementSync) => statement.columns().map((column) => column.name);

type RowBuilder = (values: readonly SQLOutputValue[]) => Row;

/**
 * Makes the rows of one statement: an object literal with its column names as keys, compiled once per statement. One
 * loop writing computed keys, shared by every statement, makes each write a megamorphic store that looks its key up
 * (7% of the instructions of listing 25 posts); a literal per statement is built in one step, in one shape. A
 * `__proto__` column (which a literal would take for the prototype) gets the loop.
 */
function rowBuilder(names: readonly string[]): RowBuilder {
  if (names.includes("__proto__")) {
    return (values) => {
      const row: Row = {};
      for (let i = 0; i < names.length; i++) {
        row[names[i] as string] = values[i] as SQLOutputValue;
      }
      return row;
    };
  }
  // Keys are JSON string literals, which are JavaScript string literals: a column name cannot escape them.
  const fields = names.map((name, index) => `${JSON.stringify(name)}: values[${index}]`);
  return new Function("values", `return { ${fields.join(", ")} };`) as RowBuilder;
}

/** With `setReturnArrays(true)` each row is an array of values, which node's types do not express. */
const asArrays = (rows: unknown[]) => rows as SQLOutputValue[][];

/**
 * The parameters as node:sqlite binds them. `undefined` binds as NULL. Anything that is not a number, string, bigint,
 * byte array or null is refused: node would bind a boolean as an integer and read a leading object (a Date, say) as
 * named parameters, silently binding NULL.
 */
function bindable(parameters: readonly unknown[]): SQLInputValue[] {
  const values: SQLInputValue[] = new Array(parameters.length);
  for (let i = 0; i < parameters.length; i++) {
    const value = parameters[i];
    if (value === undefined || value === null) {
      values[i] = null;
    } else if (typeof value === "string" || typeof value === "number" || typeof value === "bigint" || isBytes(value)) {
      values[i] = value;
    } else {
      throw new TypeError(
        `SQLite parameter ${i + 1} is a ${typeof value}: bind numbers, strings, bigints, byte arrays or null.`,
      );
    }
  }
  return values;
}

const isBytes = (value: unknown): value is NodeJS.ArrayBufferView => ArrayBuffer.isView(value);
