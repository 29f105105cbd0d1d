import { startPostgres } from "@pigeonhole/postgres-testing";
import pg from "pg";
import { parentPid, processName } from "./process-cpu.ts";

export interface BenchPostgres {
  /** The database the server instances share. */
  url: string;
  /** The server's main process when it runs on this machine, whose children serve the connections. */
  postmasterPid?: number;
  /** Stops a cluster the benchmark started; leaves a given database alone. */
  stop(): Promise<void>;
}

const LOCAL_HOSTS = new Set(["", "localhost", "127.0.0.1", "[::1]"]);

/**
 * The PostgreSQL server's main process, found as the parent of this connection's backend, when the server runs on
 * this machine; undefined when it does not (or its processes cannot be seen from here).
 */
async function findPostmaster(url: string): Promise<number | undefined> {
  const { hostname } = new URL(url);
  const socketHost = new URL(url).searchParams.get("host")?.startsWith("/") ?? false;
  if (!LOCAL_HOSTS.has(hostname) && !socketHost) {
    return undefined;
  }
  const client = new pg.Client(url);
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>("select pg_backend_pid() as pid");
    const backend = rows[0]?.pid;
    const postmaster = backend === undefined ? null : parentPid(backend);
    // A pid from another machine (or container) may name an unrelated process here.
    return postmaster !== null && processName(postmaster) === "postgres" ? postmaster : undefined;
  } finally {
    await client.end();
  }
}

/**
 * Brings a freshly seeded database to the state of one in steady use, so that the work the bulk seeding left behind
 * (statistics to gather, dead rows to vacuum, dirty pages to write out) does not land in the first measurement.
 */
export async function settlePostgres(url: string): Promise<void> {
  const client = new pg.Client(url);
  await client.connect();
  try {
    await client.query("vacuum analyze");
    // Needs a superuser (or pg_checkpoint): a database given by its address may not allow it, and then only the
    // checkpointer's own schedule applies.
    await client.query("checkpoint").catch(() => {});
  } finally {
    await client.end();
  }
}

/**
 * The database for the PostgreSQL runs: `databaseUrl` when given (an empty database, which the benchmark fills), else
 * a new database on a throw-away cluster on 127.0.0.1, removed by `stop()`.
 */
export async function openBenchPostgres(databaseUrl: string | undefined): Promise<BenchPostgres> {
  if (databaseUrl !== undefined) {
    return { url: databaseUrl, postmasterPid: await findPostmaster(databaseUrl), stop: async () => {} };
  }
  // Durable as a production server is (the test clusters' default is to skip flushing to disk), so that writes cost
  // what they would in production.
  const cluster = await startPostgres({ settings: { fsync: true, full_page_writes: true } });
  try {
    const url = await cluster.createDatabase("pigeonhole_bench");
    return { url, postmasterPid: await findPostmaster(url), stop: () => cluster.stop() };
  } catch (error) {
    await cluster.stop();
    throw error;
  }
}
