import { rmSync } from "node:fs";
import { chown, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  forgetOnExit,
  freePort,
  isRunning,
  makeOwnedFolder,
  stopOnExit,
  stopOrphans,
} from "@pigeonhole/test-processes";
import { findPostgresBinDir } from "./binaries.ts";
import { createDatabase } from "./database.ts";
import { type Account, clusterAccount, runProgram, runProgramSync } from "./run-program.ts";

export interface StartPostgresOptions {
  /** The TCP port on 127.0.0.1; by default a free one, and another if a process takes it first. */
  readonly port?: number;
  /**
   * The folder to make the cluster's folder in; the system's temp folder by default. As root, the `postgres` account
   * must be able to enter it.
   */
  readonly parentDir?: string;
  /** More server settings, applied after the defaults (see `TEST_SETTINGS`). */
  readonly settings?: Readonly<Record<string, string | number | boolean>>;
}

export interface PostgresCluster {
  /** `postgres://postgres@127.0.0.1:<port>/postgres`: the superuser, trusted without a password, on loopback only. */
  readonly url: string;
  readonly host: "127.0.0.1";
  readonly port: number;
  /** The folder holding the server's Unix socket (`host=<socketDir>` with the same port). */
  readonly socketDir: string;
  readonly dataDir: string;
  /** Creates an empty database and answers its address; without a name, a random one. */
  createDatabase(name?: string): Promise<string>;
  /**
   * Stops the server as an operator would (`pg_ctl stop -m fast`), keeping its data: clients see it go away, until
   * `resume()`. Harmless when it is paused already.
   */
  pause(): Promise<void>;
  /**
   * Starts a paused server again, with its data, on the same port; answers once it accepts connections. Harmless when
   * it is not paused.
   */
  resume(): Promise<void>;
  /** Stops the server at once (nothing it holds is worth keeping) and removes its folder. Safe to call twice. */
  stop(): Promise<void>;
}

/**
 * Settings for a server that only tests use. Its data is thrown away afterwards, so nothing is flushed to disk:
 * durability against a machine crash is all that is given up, and queries, transactions, locks and a crash of the
 * server itself behave as in production.
 */
const TEST_SETTINGS: Readonly<Record<string, string | number | boolean>> = {
  listen_addresses: "127.0.0.1",
  fsync: false,
  full_page_writes: false,
  // Several server instances, each with a connection pool, may share one cluster.
  max_connections: 200,
  timezone: "UTC",
  log_timezone: "UTC",
};

/** How many ports a start tries in all when each one it picks is taken before the server binds it. */
const START_ATTEMPTS = 5;

const SUPERUSER = "postgres";

/** Every cluster's folder starts with this, so that the next start can find those left running (see `stopOrphans`). */
const CLUSTER_PREFIX = "pigeonhole-pg-";

function configLine(name: string, value: string | number | boolean): string {
  const text = typeof value === "boolean" ? (value ? "on" : "off") : String(value);
  return `${name} = '${text.replaceAll("'", "''")}'\n`;
}

function lastLines(text: string, count = 15): string {
  return text.trim().split("\n").slice(-count).join("\n");
}

interface Paths {
  readonly root: string;
  readonly data: string;
  readonly log: string;
}

async function initCluster(bin: string, paths: Paths, account: Account | undefined, options: StartPostgresOptions) {
  if (account) {
    await chown(paths.root, account.uid, account.gid);
  }
  await runProgram(
    join(bin, "initdb"),
    [
      `--pgdata=${paths.data}`,
      `--username=${SUPERUSER}`,
      // Trust is safe here: the server listens on 127.0.0.1 and a socket in a folder only its account can enter.
      "--auth=trust",
      "--encoding=UTF8",
      // Byte order for text, as SQLite compares it, whatever the machine's locale.
      "--locale=C",
      "--no-sync",
      "--no-instructions",
    ],
    { as: account, cwd: paths.root },
  );
  const settings = { ...TEST_SETTINGS, unix_socket_directories: paths.root, ...options.settings };
  const lines = Object.entries(settings).map(([name, value]) => configLine(name, value));
  // Later lines win, so these override initdb's defaults; the file keeps its owner.
  await writeFile(join(paths.data, "postgresql.conf"), lines.join(""), { flag: "a" });
}

/** Starts the server, on another port when one it tried was taken in the meantime; answers the port. */
async function startServer(
  bin: string,
  paths: Paths,
  account: Account | undefined,
  nextPort: () => Promise<number>,
  attempts: number,
): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    const port = await nextPort();
    try {
      await runProgram(
        join(bin, "pg_ctl"),
        [`--pgdata=${paths.data}`, `--log=${paths.log}`, `--options=-p ${port}`, "--wait", "--timeout=60", "start"],
        { as: account, cwd: paths.root },
      );
      return port;
    } catch (error) {
      const log = await readFile(paths.log, "utf8").catch(() => "");
      if (log.includes("Address already in use") && attempt < attempts) {
        await rm(paths.log, { force: true });
        continue;
      }
      throw new Error(`PostgreSQL did not start on 127.0.0.1:${port}. Its log ends:\n${lastLines(log)}`, {
        cause: error,
      });
    }
  }
}

async function postmasterPid(dataDir: string): Promise<number> {
  const pidFile = await readFile(join(dataDir, "postmaster.pid"), "utf8");
  return Number(pidFile.split("\n")[0]);
}

/**
 * The cluster start-up, with the source of ports given: `startPostgres` takes free ports, and a test can hand it a
 * taken one first.
 */
export async function launchPostgres(
  options: StartPostgresOptions,
  nextPort: () => Promise<number>,
  attempts: number,
): Promise<PostgresCluster> {
  const bin = findPostgresBinDir(["initdb", "pg_ctl", "postgres"]);
  const account = await clusterAccount();
  const parentDir = options.parentDir ?? tmpdir();
  const pgCtl = join(bin, "pg_ctl");
  const stopArgs = (root: string) => [`--pgdata=${join(root, "data")}`, "--mode=immediate", "--wait", "stop"];
  await stopOrphans(parentDir, CLUSTER_PREFIX, (root) => runProgram(pgCtl, stopArgs(root), { as: account, cwd: "/" }));
  const root = await makeOwnedFolder(parentDir, CLUSTER_PREFIX);
  const paths: Paths = { root, data: join(root, "data"), log: join(root, "postgres.log") };

  const stopNow = () => {
    forgetOnExit(stopNow);
    try {
      runProgramSync(pgCtl, stopArgs(root), { as: account, cwd: root });
    } catch {
      // Not running, or already stopped: the folder goes all the same.
    }
    rmSync(root, { recursive: true, force: true });
  };

  const started = await (async () => {
    await initCluster(bin, paths, account, options);
    const port = await startServer(bin, paths, account, nextPort, attempts);
    return { port, pid: await postmasterPid(paths.data) };
  })().catch((error: unknown) => {
    stopNow();
    throw error;
  });
  const { port } = started;
  // The server's process: another after each resume.
  let { pid } = started;
  stopOnExit(stopNow);

  const url = `postgres://${SUPERUSER}@127.0.0.1:${port}/postgres`;
  let stopped: Promise<void> | undefined;
  const stop = async () => {
    forgetOnExit(stopNow);
    // A test may have killed the server: pg_ctl then fails, having waited for a pid file that nobody removes.
    if (isRunning(pid)) {
      await runProgram(pgCtl, stopArgs(root), { as: account, cwd: root }).catch((error: unknown) => {
        if (isRunning(pid)) {
          throw error;
        }
      });
    }
    await rm(root, { recursive: true, force: true });
  };
  let paused = false;
  const pause = async () => {
    if (!paused && isRunning(pid)) {
      await runProgram(pgCtl, [`--pgdata=${paths.data}`, "--mode=fast", "--wait", "stop"], { as: account, cwd: root });
    }
    paused = true;
  };
  const resume = async () => {
    if (!paused) {
      return;
    }
    await startServer(bin, paths, account, async () => port, 1);
    pid = await postmasterPid(paths.data);
    paused = false;
  };
  return {
    url,
    host: "127.0.0.1",
    port,
    socketDir: root,
    dataDir: paths.data,
    createDatabase: (name) => createDatabase(url, name),
    pause,
    resume,
    stop: () => {
      stopped ??= stop();
      return stopped;
    },
  };
}

/**
 * Starts a throw-away PostgreSQL cluster from the machine's server programs (Debian's `postgresql` package): a new
 * folder in the temp directory, the superuser `postgres` trusted on 127.0.0.1 and on a Unix socket in that folder, a
 * free port. `stop()` ends it and removes the folder; a process that exits without calling it stops it on the way out.
 */
export function startPostgres(options: StartPostgresOptions = {}): Promise<PostgresCluster> {
  const { port } = options;
  if (port !== undefined) {
    return launchPostgres(options, async () => port, 1);
  }
  return launchPostgres(options, freePort, START_ATTEMPTS);
}
