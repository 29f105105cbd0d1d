import type { Compilable, CompiledQuery, QueryResult } from "kysely";
import { SelectQueryNode } from "kysely";
import type { ServerDatabase } from "./database.ts";

/** Runs a compiled query at once and answers its result, as the database's Kysely connection would. */
export type StatementRunner = (query: CompiledQuery) => QueryResult<unknown>;

// By the database's adapter, which its transactions share.
const transactionRunners = new WeakMap<object, StatementRunner>();
const readRunners = new WeakMap<object, StatementRunner>();

/**
 * Lets prepared queries inside a transaction of `db` run with `runner` rather than through Kysely. A transaction
 * already holds its connection, and a SQLite statement is one synchronous call, for which the promises Kysely puts
 * around each query (connection provider, mutex, query id) cost more than the statement itself. Outside a
 * transaction, queries still go through Kysely, which makes them wait for a transaction in progress.
 */
export function runInTransactionsWith(db: ServerDatabase, runner: StatementRunner): void {
  transactionRunners.set(db.getExecutor().adapter, runner);
}

/**
 * Lets prepared reads outside a transaction of `db` run with `runner`: on SQLite, a second connection that only reads.
 * SQLite's WAL lets it read beside a write transaction, seeing what was committed before, so a read neither queues
 * behind a transaction in progress on the one writing connection nor pays Kysely's promises around it.
 */
export function runReadsWith(db: ServerDatabase, runner: StatementRunner): void {
  readRunners.set(db.getExecutor().adapter, runner);
}

const PARAMETER = Symbol("prepared query parameter");

/** What `build` receives in place of a parameter's value; the compiled query holds it where the value goes. */
interface Placeholder {
  readonly [PARAMETER]: string;
}

const isPlaceholder = (value: unknown): value is Placeholder =>
  typeof value === "object" && value !== null && PARAMETER in value;

interface Compiled<Row> {
  query: CompiledQuery<Row>;
  /** Whether the statement is a select (on SQLite, which has no writes inside `with`, one that only reads). */
  readsOnly: boolean;
  /** The statement's parameters for one call: the call's values where placeholders were, constants elsewhere. */
  bind(parameter: (name: string) => unknown): readonly unknown[];
}

function compile<Params extends object, Row>(
  db: ServerDatabase,
  build: (db: ServerDatabase, params: Params) => Compilable<Row>,
): Compiled<Row> {
  const placeholders = new Proxy({} as Params, {
    get: (_target, name): Placeholder => ({ [PARAMETER]: String(name) }),
  });
  const query = build(db, placeholders).compile();
  const slots = query.parameters.map((value) => (isPlaceholder(value) ? value[PARAMETER] : undefined));
  return {
    query,
    readsOnly: SelectQueryNode.is(query.query),
    bind: (parameter) => slots.map((name, index) => (name === undefined ? query.parameters[index] : parameter(name))),
  };
}

/**
 * A query that Kysely builds and compiles once per database kind, on first use; each call only binds its values.
 * Building and compiling costs about 30 µs for a join, ten times what SQLite takes to run it (the benchmark's read
 * scenarios spend a quarter of the server's time there otherwise), and the same SQL text each time lets the driver
 * find its prepared statement at once.
 *
 * `build` runs once per database kind, with stand-ins for the parameters: it must pass each to Kysely as a value,
 * unchanged (no branching on it; lists go through `SqlDialect.listParam`). A query whose shape depends on a value is
 * one `PreparedQuery` per shape. Outside a transaction, a write goes through Kysely, so it waits for a transaction in
 * progress (inside one, see {@link runInTransactionsWith}; reads, {@link runReadsWith}).
 */
export class PreparedQuery<Params extends object, Row> {
  readonly #build: (db: ServerDatabase, params: Params) => Compilable<Row>;
  // By the database's adapter: SQLite and PostgreSQL compile the same query to different SQL.
  readonly #compiled = new WeakMap<object, Compiled<Row>>();

  constructor(build: (db: ServerDatabase, params: Params) => Compilable<Row>) {
    this.#build = build;
  }

  /** Runs the query on `db` (the database or a transaction) with these values. */
  execute(db: ServerDatabase, params: Params): Promise<QueryResult<Row>> {
    return this.executeWith(db, (name) => (params as Record<string, unknown>)[name]);
  }

  /** Runs the query with the value of each parameter `build` read, looked up by its name. */
  executeWith(db: ServerDatabase, parameter: (name: string) => unknown): Promise<QueryResult<Row>> {
    const adapter = db.getExecutor().adapter;
    let compiled = this.#compiled.get(adapter);
    if (!compiled) {
      compiled = compile(db, this.#build);
      this.#compiled.set(adapter, compiled);
    }
    const query = { ...compiled.query, parameters: compiled.bind(parameter) };
    const runner = db.isTransaction
      ? transactionRunners.get(adapter)
      : compiled.readsOnly
        ? readRunners.get(adapter)
        : undefined;
    if (runner) {
      try {
        return Promise.resolve(runner(query) as QueryResult<Row>);
      } catch (error) {
        return Promise.reject(error);
      }
    }
    return db.executeQuery<Row>(query);
  }

  async rows(db: ServerDatabase, params: Params): Promise<Row[]> {
    return (await this.execute(db, params)).rows;
  }

  async first(db: ServerDatabase, params: Params): Promise<Row | undefined> {
    return (await this.execute(db, params)).rows[0];
  }
}

/** One prepared query per shape, made on first use: `variants((sort) => new PreparedQuery(...))`. */
export function preparedVariants<Shape extends string, Params extends object, Row>(
  make: (shape: Shape) => PreparedQuery<Params, Row>,
): (shape: Shape) => PreparedQuery<Params, Row> {
  const made = new Map<Shape, PreparedQuery<Params, Row>>();
  return (shape) => {
    let query = made.get(shape);
    if (!query) {
      query = make(shape);
      made.set(shape, query);
    }
    return query;
  };
}

/** Rows written by one statement of a {@link PreparedInsert}: at most this many, so it has that many shapes at most. */
const ROWS_PER_INSERT = 10;

/**
 * An INSERT of any number of rows: each statement writes up to ten of them, and each row count is a prepared query of
 * its own (made on first use), so a write of many rows costs a statement per ten rows rather than one per row.
 * `build` gets stand-ins for the rows and writes their fields as the inserted values (`rows.map((row) => ({...}))`),
 * each passed to Kysely unchanged, as {@link PreparedQuery} requires.
 */
export class PreparedInsert<Row extends object> {
  readonly #byCount: (count: string) => PreparedQuery<Record<string, unknown>, unknown>;
  /** Which row and field each parameter's name stands for, as `build` read them. */
  readonly #fields = new Map<string, { index: number; field: string }>();

  constructor(build: (db: ServerDatabase, rows: readonly Row[]) => Compilable<unknown>) {
    this.#byCount = preparedVariants(
      (count: string) =>
        new PreparedQuery((db, params: Record<string, unknown>) =>
          build(
            db,
            Array.from({ length: Number(count) }, (_, index) => this.#standIn(params, index)),
          ),
        ),
    );
  }

  async execute(db: ServerDatabase, rows: readonly Row[]): Promise<void> {
    for (let start = 0; start < rows.length; start += ROWS_PER_INSERT) {
      const chunk = rows.slice(start, start + ROWS_PER_INSERT);
      await this.#byCount(String(chunk.length)).executeWith(db, (name) => {
        const slot = this.#fields.get(name);
        return slot && (chunk[slot.index] as Record<string, unknown>)[slot.field];
      });
    }
  }

  /** Row `index` of a statement: each field it is asked for is a parameter of its own. */
  #standIn(params: Record<string, unknown>, index: number): Row {
    return new Proxy({} as Row, {
      get: (_target, field) => {
        const name = `${index}:${String(field)}`;
        this.#fields.set(name, { index, field: String(field) });
        return params[name];
      },
    });
  }
}
