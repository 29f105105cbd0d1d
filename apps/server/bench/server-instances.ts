import { existsSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { BUILT_CLI_ENTRY, type CliProcess, startCli } from "../test/support/cli-process.ts";
import { parseSmtpAddress, type SmtpAddress } from "./smtp-address.ts";

export interface ServerInstance {
  pid: number;
  inboxUrl: string;
  forumUrl: string;
  /** Where the instance receives mail; null unless started with `smtp`. */
  smtp: SmtpAddress | null;
}

export interface ServerInstanceOptions {
  /** Receive mail over SMTP on a free port of 127.0.0.1 (off by default: the HTTP scenarios do not need it). */
  smtp?: boolean;
  /** More CLI arguments, such as `--smtp-relay <url>`. */
  extraArgs?: readonly string[];
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

/** How long after its HTTP addresses the CLI may take to print its SMTP address. */
const SMTP_ADDRESS_TIMEOUT_MS = 10_000;

/** The SMTP address the CLI prints right after its HTTP ones. */
async function printedSmtpAddress(cli: CliProcess): Promise<SmtpAddress> {
  const deadline = performance.now() + SMTP_ADDRESS_TIMEOUT_MS;
  for (;;) {
    const address = parseSmtpAddress(cli.stdout());
    if (address !== undefined) {
      return address;
    }
    if (performance.now() > deadline || cli.child.exitCode !== null) {
      throw new Error(`A server instance printed no SMTP address:\n${cli.stdout()}\n${cli.stderr()}`);
    }
    await sleep(10);
  }
}

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
export async function startServerInstances(
  count: number,
  databaseArgs: readonly string[],
  options: ServerInstanceOptions = {},
): Promise<ServerInstances> {
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
        [
          ...databaseArgs,
          "--host",
          "127.0.0.1",
          "--inbox-port",
          "0",
          "--forum-port",
          "0",
          ...(options.smtp ? ["--smtp-port", "0"] : ["--no-smtp"]),
          "--quiet",
          ...NO_LIMITS,
          ...(options.extraArgs ?? []),
        ],
        { entry: BUILT_CLI_ENTRY, timeoutMs: 60_000 },
      );
      started.push(cli);
      if (cli.child.pid === undefined) {
        throw new Error("A server instance has no process id.");
      }
      const smtp = options.smtp ? await printedSmtpAddress(cli) : null;
      instances.push({ pid: cli.child.pid, inboxUrl: cli.inboxUrl, forumUrl: cli.forumUrl, smtp });
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { instances, stop };
}
