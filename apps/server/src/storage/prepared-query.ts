import type { Compilable, CompiledQuery, QueryResult } from "kysely";
import type { ServerDatabase } from "./database.ts";

const PARAMETER = Symbol("prepared query parameter");

/** What `build` receives in place of a parameter's value; the compiled query holds it where the value goes. */
interface Placeholder {
  readonly [PARAMETER]: string;
}

const isPlaceholder = (value: unknown): value is Placeholder =>
  typeof value === "object" && value !== null && PARAMETER in value;

interface Compiled<Row> {
  query: CompiledQuery<Row>;
  /** The statement's parameters for one call: the call's values where placeholders were, constants elsewhere. */
  bind(params: object): readonly unknown[];
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
    bind: (params) =>
      slots.map((name, index) =>
        name === undefined ? query.parameters[index] : (params as Record<string, unknown>)[name],
      ),
  };
}

/**
 * A query that Kysely builds and compiles once, on first use; each call only binds its values. Building and
 * compiling a query costs more than running a small one on SQLite, and a compiled query hands the statement cache
 * the same SQL string every time.
 *
 * `build` runs once, with stand-ins for the parameters: it must pass each to Kysely as a value, unchanged (no
 * branching on it, no `in` lists). Queries whose shape depends on the values stay ordinary Kysely queries.
 * Execution goes through Kysely, so a query run outside a transaction still waits for one in progress.
 */
export class PreparedQuery<Params extends object, Row> {
  readonly #build: (db: ServerDatabase, params: Params) => Compilable<Row>;
  #compiled: Compiled<Row> | undefined;

  constructor(build: (db: ServerDatabase, params: Params) => Compilable<Row>) {
    this.#build = build;
  }

  /** Runs the query on `db` (the database or a transaction) with these values. */
  execute(db: ServerDatabase, params: Params): Promise<QueryResult<Row>> {
    this.#compiled ??= compile(db, this.#build);
    const { query, bind } = this.#compiled;
    return db.executeQuery<Row>({ ...query, parameters: bind(params) });
  }

  async rows(db: ServerDatabase, params: Params): Promise<Row[]> {
    return (await this.execute(db, params)).rows;
  }

  async first(db: ServerDatabase, params: Params): Promise<Row | undefined> {
    return (await this.execute(db, params)).rows[0];
  }
}
