import { Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import type { ServerDatabase } from "../database.ts";
import { migrateToLatest } from "../database.ts";
import { postgresColumnTypes } from "../migrations/column-types.ts";
import type { DatabaseSchema } from "../schema.ts";

export interface PostgresOptions {
  /** Connections this instance keeps open at most. */
  poolSize: number;
  /** Told of an error on an idle connection (the database restarted, say); the pool replaces the connection. */
  onConnectionError(error: Error): void;
  /**
   * Commit without waiting for the write-ahead log to reach disk: a crash of the database (not of the server) may
   * forget the last few hundred milliseconds of these connections' writes. Only for what is worth that trade.
   */
  asynchronousCommit?: boolean;
  /**
   * Bounds every wait of these connections, in milliseconds: connecting, and each statement (on the server, and in
   * the client should the server not answer at all). None unless given: only for short checks.
   */
  timeoutMs?: number;
}

const INT8 = 20;

/**
 * Values as the server stores them: Unix milliseconds and counts are 64-bit integers in PostgreSQL, which `pg` reads
 * as strings; every such value here fits a JavaScript number exactly.
 */
const types = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    oid === INT8 ? Number : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/** A connection pool's use at this moment. */
export interface PoolUse {
  total: number;
  idle: number;
  /** Callers waiting for a connection. */
  waiting: number;
}

// By the Kysely instance each pool serves.
const pools = new WeakMap<ServerDatabase, pg.Pool>();

/** How the pool behind `db` (made by {@link connectPostgres}) is used now. */
export function poolUseOf(db: ServerDatabase): PoolUse | undefined {
  const pool = pools.get(db);
  return pool && { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount };
}

/** A pool of connections to a PostgreSQL database, as Kysely uses it. */
export function connectPostgres(url: string, options: PostgresOptions): ServerDatabase {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize,
    types,
    ...(options.asynchronousCommit ? { options: "-c synchronous_commit=off" } : {}),
    ...(options.timeoutMs === undefined
      ? {}
      : {
          connectionTimeoutMillis: options.timeoutMs,
          statement_timeout: options.timeoutMs,
          query_timeout: options.timeoutMs,
        }),
  });
  // Unhandled, an idle connection's error would end the process.
  pool.on("error", options.onConnectionError);
  // So would the error of a connection in use but between statements (inside a transaction, say) when the database
  // ends it (a restart): the pool listens only to idle ones. Nothing to add for those: the next statement on it fails,
  // saying why, and the pool drops it (an idle one's error is told above).
  pool.on("connect", (client) => client.on("error", () => {}));
  const db = new Kysely<DatabaseSchema>({ dialect: new PostgresDialect({ pool }) });
  pools.set(db, pool);
  return db;
}

/** Connects to a PostgreSQL database and brings its schema up to date. */
export async function openPostgres(url: string, options: PostgresOptions): Promise<ServerDatabase> {
  const db = connectPostgres(url, options);
  try {
    await migrateToLatest(db, postgresColumnTypes, redactPassword(url));
  } catch (error) {
    await db.destroy();
    throw error;
  }
  return db;
}

/** The address without its password, for messages and logs. */
export function redactPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) {
      parsed.password = "***";
    }
    return parsed.toString();
  } catch {
    return "the PostgreSQL database";
  }
}
