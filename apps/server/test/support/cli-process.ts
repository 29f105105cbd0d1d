import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

/** The CLI's source, run directly by Node (type stripping), so tests need no build. */
export const CLI_ENTRY = fileURLToPath(new URL("../../src/cli.ts", import.meta.url));

/** The built CLI, as the package's `pigeonhole-server` bin runs it (after `pnpm --filter @pigeonhole/server build`). */
export const BUILT_CLI_ENTRY = fileURLToPath(new URL("../../dist/cli.js", import.meta.url));

export const TEST_KEYS = { inbox: "crash-test-inbox-key", forum: "crash-test-forum-key" };

/** Both APIs and SMTP on ports the system picks, so that servers started side by side never collide. */
export const ON_FREE_PORTS = ["--inbox-port", "0", "--forum-port", "0", "--smtp-port", "0"] as const;

export interface CliProcess {
  child: ChildProcessWithoutNullStreams;
  inboxUrl: string;
  forumUrl: string;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export interface StartCliOptions {
  /** The script Node runs: {@link CLI_ENTRY} (default) or {@link BUILT_CLI_ENTRY}. */
  entry?: string;
  /** The working directory; this process's by default. */
  cwd?: string;
  /** How long the CLI may take to print its addresses. Default 20 s. */
  timeoutMs?: number;
  /** Variables added to this process's environment (and the test keys) for the CLI. */
  env?: Readonly<Record<string, string>>;
}

/** Runs the CLI with `args` (in `cwd`, by default this process's) and resolves once it has printed both addresses. */
export function runCli(args: string[], timeoutMs = 20_000, cwd?: string): Promise<CliProcess> {
  return startCli(args, { timeoutMs, cwd });
}

/** Runs a CLI entry with `args` and the test keys, and resolves once it has printed both addresses. */
export function startCli(args: string[], options: StartCliOptions = {}): Promise<CliProcess> {
  const { entry = CLI_ENTRY, cwd, timeoutMs = 20_000, env = {} } = options;
  const child = spawn(process.execPath, [entry, ...args], {
    cwd,
    env: {
      ...process.env,
      PIGEONHOLE_INBOX_API_KEY: TEST_KEYS.inbox,
      PIGEONHOLE_FORUM_API_KEY: TEST_KEYS.forum,
      NODE_NO_WARNINGS: "1",
      ...env,
    },
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  const cli: CliProcess = { child, inboxUrl: "", forumUrl: "", stdout: () => stdout, stderr: () => stderr, exited };
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`The CLI did not start within ${timeoutMs} ms.\n${stdout}\n${stderr}`));
    }, timeoutMs);
  });
  // The banner prints the Inbox API's address, then the Forum API's.
  const banner = waitForOutput(cli, "stdout", /Inbox API\s+(http:\/\/\S+)[\s\S]*Forum API\s+(http:\/\/\S+)/);
  return Promise.race([banner, timedOut])
    .then(([, inboxUrl, forumUrl]) => ({ ...cli, inboxUrl: inboxUrl ?? "", forumUrl: forumUrl ?? "" }))
    .finally(() => clearTimeout(timer));
}

/**
 * The first match of `pattern` in what the CLI has written to `stream`, as soon as it is written; rejects if the CLI
 * exits first, with what it wrote.
 */
export function waitForOutput(cli: CliProcess, stream: "stdout" | "stderr", pattern: RegExp): Promise<RegExpExecArray> {
  const written = stream === "stdout" ? cli.stdout : cli.stderr;
  return new Promise((resolve, reject) => {
    const look = () => {
      const match = pattern.exec(written());
      if (match) {
        cli.child[stream].off("data", look);
        resolve(match);
      }
    };
    cli.child[stream].on("data", look);
    void cli.exited.then(({ code, signal }) => {
      cli.child[stream].off("data", look);
      reject(new Error(`The CLI exited (${code ?? signal}) without writing ${pattern} to ${stream}:\n${written()}`));
    });
    look();
  });
}
