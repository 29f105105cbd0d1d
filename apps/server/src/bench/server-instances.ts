import { existsSync } from "node:fs";
import { BUILT_CLI_ENTRY, type CliProcess, startCli } from "../testing/cli-process.ts";

export interface ServerInstance {
  pid: number;
  inboxUrl: string;
  forumUrl: string;
}

export interface ServerInstances {
  instances: ServerInstance[];
  /** Stops every instance and waits for each to exit. */
  stop(): Promise<void>;
}

// Every limit out of the way: the benchmark measures the work of a request, not the refusal of one.
const NO_LIMITS = [
  "--inbox-requests-per-minute",
  "100000000",
  "--inbox-sends-per-day",
  "100000000",
  "--forum-reads-per-minute",
  "100000000",
  "--forum-writes-per-minute",
  "100000000",
];

async function stopProcess(cli: CliProcess): Promise<void> {
  if (cli.child.exitCode === null && cli.child.signalCode === null) {
    cli.child.kill("SIGTERM");
  }
  await cli.exited;
}

/**
 * Starts `count` processes of the built `pigeonhole-server` CLI, each on free ports of 127.0.0.1, all with
 * `databaseArgs`. They start one after another, so that only the first one migrates the database.
 */
export async function startServerInstances(count: number, databaseArgs: readonly string[]): Promise<ServerInstances> {
  if (!existsSync(BUILT_CLI_ENTRY)) {
    throw new Error(`${BUILT_CLI_ENTRY} is missing: build the server first (pnpm --filter @pigeonhole/server build).`);
  }
  const started: CliProcess[] = [];
  const instances: ServerInstance[] = [];
  const stop = async () => {
    await Promise.all(started.map(stopProcess));
  };
  try {
    for (let i = 0; i < count; i++) {
      const cli = await startCli(
        [...databaseArgs, "--host", "127.0.0.1", "--inbox-port", "0", "--forum-port", "0", "--quiet", ...NO_LIMITS],
        { entry: BUILT_CLI_ENTRY, timeoutMs: 60_000 },
      );
      started.push(cli);
      if (cli.child.pid === undefined) {
        throw new Error("A server instance has no process id.");
      }
      instances.push({ pid: cli.child.pid, inboxUrl: cli.inboxUrl, forumUrl: cli.forumUrl });
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { instances, stop };
}
