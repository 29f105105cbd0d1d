import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import type { Server } from "node:net";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { CliProcess } from "../test/support/cli-process.ts";
import { CLI_ENTRY, startCli, TEST_KEYS } from "../test/support/cli-process.ts";

// pigeonhole-server configured by its environment: each option's PIGEONHOLE_* variable, secrets from files.

const dir = mkdtempSync(join(tmpdir(), "pigeonhole-cli-environment-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Ports free a moment ago, all different: each was held until all were picked. */
async function freePorts(count: number): Promise<number[]> {
  const servers: Server[] = [];
  for (let i = 0; i < count; i++) {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    servers.push(server);
  }
  const ports = servers.map((server) => (server.address() as { port: number }).port);
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}

/**
 * Starts the CLI on ports picked for it; another program may take one before the CLI binds it, so a start refused
 * with EADDRINUSE is tried again on new ports, three times at most.
 */
async function startOnFreePorts(count: number, launch: (ports: number[]) => Promise<CliProcess>) {
  for (let attempt = 1; ; attempt++) {
    const ports = await freePorts(count);
    try {
      return { ports, cli: await launch(ports) };
    } catch (error) {
      if (attempt >= 3 || !String(error).includes("EADDRINUSE")) {
        throw error;
      }
    }
  }
}

async function stop(cli: CliProcess) {
  cli.child.kill("SIGTERM");
  return cli.exited;
}

/** Runs the CLI to its end with `env` added to this process's environment. */
const runToEnd = (args: string[], env: Record<string, string>) =>
  spawnSync(process.execPath, [CLI_ENTRY, ...args], {
    encoding: "utf8",
    env: { ...process.env, NODE_NO_WARNINGS: "1", ...env },
  });

const authorized = (key: string) => ({ Authorization: `Bearer ${key}`, "Content-Type": "application/json" });

async function createInbox(inboxUrl: string, domain: string) {
  return fetch(`${inboxUrl}/v0/inboxes`, {
    method: "POST",
    headers: authorized(TEST_KEYS.inbox),
    body: JSON.stringify({ username: "support", domain }),
  });
}

describe("pigeonhole-server configured by its environment", () => {
  it("starts from variables alone, where they say, with a test-control key from a file that ps never shows", async () => {
    const secret = `key-from-file-${Math.random().toString(36).slice(2)}`;
    const keyFile = join(dir, "test-control-key");
    writeFileSync(keyFile, `${secret}\n`);
    const { ports, cli } = await startOnFreePorts(3, ([inbox, forum, smtp]) =>
      startCli([], {
        env: {
          PIGEONHOLE_MEMORY: "true",
          PIGEONHOLE_INBOX_PORT: String(inbox),
          PIGEONHOLE_FORUM_PORT: String(forum),
          PIGEONHOLE_SMTP_PORT: String(smtp),
          PIGEONHOLE_DOMAIN: "a.example.com, b.example.com",
          PIGEONHOLE_INBOX_REQUESTS_PER_MINUTE: "500",
          PIGEONHOLE_QUIET: "1",
          PIGEONHOLE_TEST_CONTROL: "true",
          PIGEONHOLE_TEST_CONTROL_KEY_FILE: keyFile,
        },
      }),
    );
    try {
      const [inbox, forum, smtp] = ports;
      expect(cli.inboxUrl).toBe(`http://127.0.0.1:${inbox}`);
      expect(cli.forumUrl).toBe(`http://127.0.0.1:${forum}`);
      expect((await fetch(`${cli.forumUrl}/health`)).status).toBe(200);
      const created = await createInbox(cli.inboxUrl, "b.example.com");
      expect(created.status).toBe(200);
      expect(created.headers.get("X-RateLimit-Limit")).toBe("500");
      const clock = await fetch(`${cli.inboxUrl}/_test/clock`, { headers: authorized(secret) });
      expect(clock.status).toBe(200);
      // Neither the command line nor the environment of the process holds the key: only the file's path.
      const shown = ["cmdline", "environ"].map((file) => readFileSync(`/proc/${cli.child.pid}/${file}`, "latin1"));
      expect(shown.join("\n")).toContain(keyFile);
      expect(shown.join("\n")).not.toContain(secret);
      expect(await stop(cli)).toEqual({ code: 0, signal: null });
      expect(cli.stdout()).toContain(
        `  SMTP       smtp://127.0.0.1:${smtp}   mail for: a.example.com, b.example.com\n`,
      );
      expect(cli.stdout()).not.toContain(secret);
      // PIGEONHOLE_QUIET: no request lines.
      expect(cli.stderr()).not.toContain('"msg":"request"');
    } finally {
      cli.child.kill("SIGKILL");
    }
  });

  it("lets a flag win over its variable, and over the variable of an option it excludes", async () => {
    const { ports, cli } = await startOnFreePorts(4, ([inboxByVariable, forum, inboxByFlag, smtp]) =>
      startCli(["--inbox-port", String(inboxByFlag), "--domain", "flag.example.com", "--no-smtp"], {
        env: {
          PIGEONHOLE_MEMORY: "true",
          PIGEONHOLE_INBOX_PORT: String(inboxByVariable),
          PIGEONHOLE_FORUM_PORT: String(forum),
          PIGEONHOLE_SMTP_PORT: String(smtp),
          PIGEONHOLE_DOMAIN: "variable.example.com",
          PIGEONHOLE_QUIET: "true",
        },
      }),
    );
    try {
      const [, forum, inboxByFlag] = ports;
      expect(cli.inboxUrl).toBe(`http://127.0.0.1:${inboxByFlag}`);
      expect(cli.forumUrl).toBe(`http://127.0.0.1:${forum}`);
      expect((await createInbox(cli.inboxUrl, "flag.example.com")).status).toBe(200);
      expect((await createInbox(cli.inboxUrl, "variable.example.com")).status).toBe(400);
      await stop(cli);
      expect(cli.stdout()).not.toContain("  SMTP ");
    } finally {
      cli.child.kill("SIGKILL");
    }
  });

  // Four runs of the CLI, one after another.
  it("refuses a bad variable before any command runs, naming it, as it refuses a bad flag", {
    timeout: 120_000,
  }, () => {
    for (const [variable, text, message] of [
      ["PIGEONHOLE_INBOX_PORT", "many", "PIGEONHOLE_INBOX_PORT takes a whole number, not 'many'."],
      ["PIGEONHOLE_DEV_KEYS", "yes", "PIGEONHOLE_DEV_KEYS takes true or 1 (on) or false or 0 (off), not 'yes'."],
      ["PIGEONHOLE_DOMAIN", "a.example.com,", "PIGEONHOLE_DOMAIN holds values separated by single commas"],
    ] as const) {
      const refused = runToEnd(["--memory"], { [variable]: text });
      expect({ variable, status: refused.status, stdout: refused.stdout }).toEqual({ variable, status: 2, stdout: "" });
      expect(refused.stderr).toContain(`pigeonhole-server: ${message}`);
      expect(refused.stderr).toContain("Options of start:");
    }
    // --help is no command: it answers whatever the environment holds.
    expect(runToEnd(["--help"], { PIGEONHOLE_INBOX_PORT: "many" }).status).toBe(0);
  });

  it("refuses to start when a secret's file cannot be read, naming the variable and the path", () => {
    const missing = join(dir, "no-such-relay-url");
    const refused = runToEnd(["--memory"], { PIGEONHOLE_SMTP_RELAY_FILE: missing });
    expect(refused.status).toBe(1);
    expect(refused.stdout).toBe("");
    expect(refused.stderr).toContain(`PIGEONHOLE_SMTP_RELAY_FILE names ${missing}, which cannot be read: ENOENT`);
    expect(refused.stderr).not.toContain("Options of start:");
  });

  it("gives the keys commands their database from a file, and reads no variable of start's options", () => {
    const database = join(dir, "keys.db");
    const databaseFile = join(dir, "database-url");
    writeFileSync(databaseFile, `${database}\n`);
    // A bad variable of start's options is no concern of the keys commands.
    const env = { PIGEONHOLE_DATABASE_URL_FILE: databaseFile, PIGEONHOLE_INBOX_PORT: "many" };
    const created = runToEnd(["keys", "create", "--service", "inbox", "--create-db"], env);
    expect(created.status, created.stderr).toBe(0);
    const listed = runToEnd(["keys", "list"], env);
    expect(listed.status).toBe(0);
    expect(listed.stdout).toMatch(/key_[0-9a-f]{16}\s+inbox/);
    // The flag wins: another file has no keys.
    expect(runToEnd(["keys", "list", "--database", join(dir, "other.db")], env).status).toBe(1);
  });

  it("lists each option's variable in --help, with the rules for switches, lists and secrets' files", () => {
    const help = runToEnd(["--help"], {}).stdout.replaceAll(/\s+/g, " ");
    for (const shown of [
      "(PIGEONHOLE_INBOX_PORT; default 4010)",
      "(repeatable; PIGEONHOLE_DOMAIN, comma-separated; default pigeonhole.test)",
      "do not receive mail over SMTP (PIGEONHOLE_SMTP=false)",
      "(PIGEONHOLE_DEV_KEYS=true or false; default on with SQLite, off with PostgreSQL)",
      "PIGEONHOLE_SMTP_RELAY or PIGEONHOLE_SMTP_RELAY_FILE",
      "PIGEONHOLE_TEST_CONTROL_KEY or PIGEONHOLE_TEST_CONTROL_KEY_FILE, which, unlike the flag, does not turn test control on",
      "A switch's variable takes true or 1 (the flag) or false or 0 (--no-<flag>)",
      "PIGEONHOLE_DATABASE_URL stands for --database.",
    ]) {
      expect(help).toContain(shown);
    }
  });
});
