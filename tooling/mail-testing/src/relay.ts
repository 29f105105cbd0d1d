import { rmSync } from "node:fs";
import { chmod, chown, mkdir, readFile, rename, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type Account,
  forgetOnExit,
  freePort,
  isRunning,
  makeOwnedFolder,
  runProgram,
  runProgramSync,
  stopOnExit,
  stopOrphans,
  systemAccount,
} from "@pigeonhole/test-processes";
import { type DeliveredMessage, readMaildir } from "./maildir.ts";
import {
  mainCf,
  masterCf,
  type PostfixSettings,
  RELAY_HOSTNAME,
  type RelayPaths,
  relayPaths,
  saslConfig,
} from "./postfix-config.ts";
import { findProgram } from "./programs.ts";

export interface StartRelayOptions {
  /** With a password: clients must log in (AUTH PLAIN or LOGIN) to send mail through the relay. */
  readonly user?: string;
  readonly password?: string;
  /** The folder to make the relay's folder in; the system's temp folder by default. */
  readonly parentDir?: string;
}

export interface Relay {
  /** `smtp://[user:password@]127.0.0.1:<port>`, for `--smtp-relay`. */
  readonly url: string;
  readonly host: "127.0.0.1";
  readonly port: number;
  /** The relay's folder: configuration, queue, log and delivered mail. */
  readonly dir: string;
  /**
   * Makes the relay answer RCPT TO for `address` with `reply` (such as "451 4.7.1 Try again later" or
   * "550 5.1.1 User unknown") until cleared with `null`. Postfix puts the address in front of the text:
   * `451 4.7.1 <a@example.org>: Recipient address rejected: Try again later`. It applies from the next connection on.
   */
  setRecipientReply(address: string, reply: string | null): Promise<void>;
  /** Every message the relay delivered so far, oldest first. */
  delivered(): Promise<DeliveredMessage[]>;
  /** Waits until at least `count` messages were delivered, for at most `timeoutMs` (10 s by default); answers them all. */
  waitForDelivered(count: number, timeoutMs?: number): Promise<DeliveredMessage[]>;
  /**
   * Sends mail for `domain` on to the SMTP server on 127.0.0.1:`smtpPort` instead of keeping it, from the next message
   * the relay hands on: for round trips through a server under test.
   */
  routeDomain(domain: string, smtpPort: number): Promise<void>;
  /** Postfix's log so far, one line per event (connections, refusals, deliveries, with their SMTP replies). */
  log(): Promise<string>;
  /** Stops Postfix and removes the relay's folder. Safe to call twice. */
  stop(): Promise<void>;
}

/** How many ports a start tries in all when each one it picks is taken before Postfix binds it. */
const START_ATTEMPTS = 5;

/** Every relay's folder starts with this, so that the next start can find those left running (see `stopOrphans`). */
const RELAY_PREFIX = "pigeonhole-relay-";

/** A reply Postfix can give from an access table: a 4xx or 5xx code, then text. */
const RECIPIENT_REPLY = /^[45]\d\d [^\r\n]+$/;

function lastLines(text: string, count = 15): string {
  return text.trim().split("\n").slice(-count).join("\n");
}

async function readLog(paths: RelayPaths): Promise<string> {
  return readFile(paths.log, "utf8").catch(() => "");
}

/** The `postfix` account that Debian's package creates: it owns the queue and the mail that virtual(8) writes. */
function postfixAccount(): Promise<Account> {
  return systemAccount(
    "postfix",
    "This machine has no `postfix` account. Debian's postfix package creates one: " +
      "install it with `bash scripts/ensure-test-tools.sh`.",
  );
}

/**
 * Writes a file dated a minute ago. Postfix waits about two seconds before it reads a table or its configuration
 * when the file changed in the last moments (it may still be being written); these are written whole, so that wait
 * only slows each change down.
 */
async function writeSettled(path: string, text: string): Promise<void> {
  await writeFile(`${path}.new`, text);
  const past = new Date(Date.now() - 60_000);
  await utimes(`${path}.new`, past, past);
  // Renamed into place, so that a Postfix process never reads half of it.
  await rename(`${path}.new`, path);
}

async function writeTable(path: string, entries: ReadonlyMap<string, string>): Promise<void> {
  await writeSettled(path, [...entries].map(([key, value]) => `${key} ${value}\n`).join(""));
}

async function makeFolders(paths: RelayPaths, account: Account): Promise<void> {
  // Postfix's processes run as `postfix` and must reach the queue through the relay's folder.
  await chmod(paths.root, 0o755);
  await mkdir(paths.config, { mode: 0o755 });
  await mkdir(paths.queue, { mode: 0o755 });
  for (const owned of [paths.data, paths.mailboxes]) {
    await mkdir(owned, { mode: 0o700 });
    await chown(owned, account.uid, account.gid);
  }
  await writeSettled(paths.recipientReplies, "");
  await writeSettled(paths.transports, "");
}

/** A sasldb file with one user, and smtpd's SASL settings where Debian's Postfix (`<path>/sasl`) and upstream look. */
async function addLogin(paths: RelayPaths, user: string, password: string, uid: number): Promise<void> {
  const saslpasswd2 = findProgram("saslpasswd2", "sasl2-bin");
  await runProgram(saslpasswd2, ["-p", "-c", "-f", paths.sasldb, "-u", RELAY_HOSTNAME, user], { input: password });
  await chown(paths.sasldb, uid, 0);
  await mkdir(join(paths.config, "sasl"), { mode: 0o755 });
  await writeFile(join(paths.config, "smtpd.conf"), saslConfig(paths));
  await writeFile(join(paths.config, "sasl", "smtpd.conf"), saslConfig(paths));
}

/** Starts Postfix, on another port when the one it tried was taken in the meantime; answers the port. */
async function startPostfix(postfix: string, settings: Omit<PostfixSettings, "port">): Promise<number> {
  const { paths } = settings;
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    await writeSettled(join(paths.config, "main.cf"), mainCf({ ...settings, port }));
    await writeSettled(join(paths.config, "master.cf"), masterCf({ ...settings, port }));
    try {
      // `start` waits until the master has bound its ports and started its services.
      await runProgram(postfix, ["-c", paths.config, "start"]);
      return port;
    } catch (error) {
      const log = await readLog(paths);
      if (log.includes("Address already in use") && attempt < START_ATTEMPTS) {
        await rm(paths.log, { force: true });
        continue;
      }
      throw new Error(`Postfix did not start on 127.0.0.1:${port}. Its log ends:\n${lastLines(log)}`, {
        cause: error,
      });
    }
  }
}

async function masterPid(paths: RelayPaths): Promise<number | undefined> {
  const text = await readFile(join(paths.queue, "pid", "master.pid"), "utf8").catch(() => "");
  const pid = Number(text.trim());
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

function countReloads(log: string): number {
  return log.split("\n").filter((line) => line.includes("postfix/master[") && line.includes(": reload --")).length;
}

/**
 * Starts a throw-away Postfix (Debian's `postfix` package) on 127.0.0.1 and a free port, from a configuration, queue
 * and Maildir in a new folder of the temp directory. It accepts mail for any domain from 127.0.0.1 (or, given a user
 * and password, from clients that log in) and keeps every message it delivers, except for domains routed elsewhere.
 * Postfix's master must run as root. `stop()` ends it and removes the folder; a process that exits without calling it
 * stops it on the way out, and a relay whose process was killed outright is stopped by the next start.
 */
export async function startRelay(options: StartRelayOptions = {}): Promise<Relay> {
  const { user, password } = options;
  if ((user === undefined) !== (password === undefined)) {
    throw new Error("startRelay needs both a user and a password, or neither");
  }
  if (process.getuid?.() !== 0) {
    throw new Error("Postfix's master runs as root: run the tests that start a relay as root.");
  }
  const postfix = findProgram("postfix", "postfix");
  const parentDir = options.parentDir ?? tmpdir();
  await stopOrphans(parentDir, RELAY_PREFIX, (root) => runProgram(postfix, ["-c", relayPaths(root).config, "abort"]));
  const root = await makeOwnedFolder(parentDir, RELAY_PREFIX);
  const paths = relayPaths(root);

  const stopNow = () => {
    forgetOnExit(stopNow);
    try {
      runProgramSync(postfix, ["-c", paths.config, "abort"]);
    } catch {
      // Not running, or already stopped: the folder goes all the same.
    }
    rmSync(root, { recursive: true, force: true });
  };

  const port = await (async () => {
    const account = await postfixAccount();
    await makeFolders(paths, account);
    if (user !== undefined && password !== undefined) {
      await addLogin(paths, user, password, account.uid);
    }
    return startPostfix(postfix, { paths, ...account, requireLogin: user !== undefined });
  })().catch((error: unknown) => {
    stopNow();
    throw error;
  });
  stopOnExit(stopNow);

  const login =
    user !== undefined && password !== undefined ? `${encodeURIComponent(user)}:${encodeURIComponent(password)}@` : "";
  const replies = new Map<string, string>();
  const routes = new Map<string, string>();

  const delivered = () => readMaildir(join(paths.mailboxes, "maildir"));

  let stopped: Promise<void> | undefined;
  const stop = async () => {
    forgetOnExit(stopNow);
    const pid = await masterPid(paths);
    if (pid !== undefined && isRunning(pid)) {
      // What `postfix stop` does, without its pauses of a second: the master ends its services, then itself.
      process.kill(pid, "SIGTERM");
      const deadline = Date.now() + 10_000;
      while (isRunning(pid) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      if (isRunning(pid)) {
        process.kill(-pid, "SIGKILL");
      }
    }
    await rm(root, { recursive: true, force: true });
  };

  return {
    url: `smtp://${login}127.0.0.1:${port}`,
    host: "127.0.0.1",
    port,
    dir: root,
    async setRecipientReply(address, reply) {
      if (/\s/.test(address) || address === "") {
        throw new Error(`Not an address: ${JSON.stringify(address)}`);
      }
      if (reply === null) {
        replies.delete(address.toLowerCase());
      } else if (RECIPIENT_REPLY.test(reply)) {
        replies.set(address.toLowerCase(), reply);
      } else {
        throw new Error(`A recipient reply is a 4xx or 5xx code and text, not ${JSON.stringify(reply)}`);
      }
      // Each smtpd serves one connection, so the next one reads the table afresh.
      await writeTable(paths.recipientReplies, replies);
    },
    delivered,
    async waitForDelivered(count, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const messages = await delivered();
        if (messages.length >= count) {
          return messages;
        }
        if (Date.now() >= deadline) {
          throw new Error(
            `The relay delivered ${messages.length} of ${count} messages in ${timeoutMs} ms. ` +
              `Its log ends:\n${lastLines(await readLog(paths), 20)}`,
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    async routeDomain(domain, smtpPort) {
      if (!/^[a-z0-9.-]+$/i.test(domain) || !Number.isInteger(smtpPort) || smtpPort <= 0 || smtpPort > 65_535) {
        throw new Error(`Cannot route ${JSON.stringify(domain)} to port ${smtpPort}`);
      }
      routes.set(domain.toLowerCase(), `smtp:[127.0.0.1]:${smtpPort}`);
      await writeTable(paths.transports, routes);
      // Long-running services read the transport table once: a reload restarts them, and the master logs it.
      const before = countReloads(await readLog(paths));
      await runProgram(postfix, ["-c", paths.config, "reload"]);
      const deadline = Date.now() + 10_000;
      while (countReloads(await readLog(paths)) <= before) {
        if (Date.now() >= deadline) {
          throw new Error(`Postfix did not reload within 10 s. Its log ends:\n${lastLines(await readLog(paths))}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    log: () => readLog(paths),
    stop: () => {
      stopped ??= stop();
      return stopped;
    },
  };
}
