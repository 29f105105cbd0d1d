import { execFile, execFileSync, spawnSync } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { createTestControl } from "@pigeonhole/test-control";
import { afterAll, describe, expect, it } from "vitest";
import { CLI_ENTRY, ON_FREE_PORTS, runCli, TEST_KEYS } from "../test/support/cli-process.ts";
import { expectData, forumClient, inboxClient } from "../test/support/test-server.ts";
import { parseCommandLine } from "./options/command-line.ts";
import { wholeNumber, wholeNumbers } from "./options/option-parsers.ts";
import type { CommandLineValues, OptionName } from "./options/option-table.ts";
import { optionEntries } from "./options/option-table.ts";
import { defaultOf, plain, synopsis } from "./options/option-text.ts";
import { startOptions } from "./options/start-options.ts";
import { UsageError } from "./options/usage-error.ts";
import type { ServerLimits, ServerOptions } from "./options.ts";
import { resolveOptions } from "./options.ts";

const dir = mkdtempSync(join(tmpdir(), "pigeonhole-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Runs the CLI to its end without blocking this process, so that connections to a server under test stay served
 * meanwhile: answers its exit status and output, as `runToEnd` does.
 */
const runWhileServing = (args: string[]) =>
  promisify(execFile)(process.execPath, [CLI_ENTRY, ...args], {
    encoding: "utf8",
    env: { ...process.env, NODE_NO_WARNINGS: "1" },
  }).then(
    ({ stdout, stderr }) => ({ status: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({ ...error, status: error.code }),
  );

const runToEnd = (args: string[]) =>
  spawnSync(process.execPath, [CLI_ENTRY, ...args], {
    encoding: "utf8",
    env: { ...process.env, NODE_NO_WARNINGS: "1" },
  });

describe("pigeonhole-server", () => {
  it("prints both addresses and the development keys, serves them, and stops cleanly on SIGTERM", async () => {
    const cli = await runCli(["--memory", ...ON_FREE_PORTS, "--quiet"]);
    expect(cli.stdout()).toContain(`key: ${TEST_KEYS.inbox}`);
    expect(cli.stdout()).toContain(`key: ${TEST_KEYS.forum}`);
    expect(cli.inboxUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const inbox = inboxClient(cli.inboxUrl, TEST_KEYS.inbox);
    expectData(await inbox.GET("/v0/inboxes", {}));
    const health = await fetch(`${cli.forumUrl}/health`);
    expect(await health.json()).toEqual({ status: "ok" });
    cli.child.kill("SIGTERM");
    expect(await cli.exited).toEqual({ code: 0, signal: null });
    // --quiet: the stop notice is an info line like the request lines, left out; what remains is warnings, as JSON.
    expect(
      cli
        .stderr()
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line).level),
    ).not.toContain("info");
    expect(cli.stdout()).toMatch(/ {2}SMTP {7}smtp:\/\/127\.0\.0\.1:\d+ {3}mail for: pigeonhole\.test\n/);
  });

  it("runs locally with no database option: the file pigeonhole.db in the working directory, named in its banner", async () => {
    const workingDir = mkdtempSync(join(dir, "local-"));
    const cli = await runCli(["--inbox-port", "0", "--forum-port", "0", "--smtp-port", "0"], 20_000, workingDir);
    cli.child.kill("SIGTERM");
    expect(await cli.exited).toEqual({ code: 0, signal: null });
    const database = join(workingDir, "pigeonhole.db");
    expect(cli.stdout()).toContain("Pigeonhole server is running.");
    expect(cli.stdout()).toContain(`Database   ${database}`);
    expect(existsSync(database)).toBe(true);
    const messages = cli
      .stderr()
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as { level: string; msg: string })
      .filter((line) => line.level === "info")
      .map((line) => line.msg);
    expect(messages).toEqual(["server started", "signal received; stopping", "server stopped"]);
  });

  it("logs one JSON line per request on stderr unless --quiet", async () => {
    const cli = await runCli(["--memory", "--inbox-port", "0", "--forum-port", "0", "--smtp-port", "0"]);
    await (
      await fetch(`${cli.inboxUrl}/v0/inboxes`, { headers: { Authorization: `Bearer ${TEST_KEYS.inbox}` } })
    ).text();
    cli.child.kill("SIGINT");
    await cli.exited;
    const requests = cli
      .stderr()
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((entry) => entry.msg === "request");
    expect(requests).toEqual([
      expect.objectContaining({ service: "inbox", method: "GET", path: "/v0/inboxes", status: 200, level: "info" }),
    ]);
    expect(cli.stderr()).not.toContain(TEST_KEYS.inbox);
  });

  it("creates keys in a database file that a running server accepts", async () => {
    const database = join(dir, "keys.db");
    const cli = await runCli(["--db", database, ...ON_FREE_PORTS, "--quiet"]);
    try {
      const inboxKey = runToEnd(["keys", "create", "--service", "inbox", "--db", database]);
      expect(inboxKey.status).toBe(0);
      expect(inboxKey.stdout.trim()).toMatch(/^ph_inbox_[A-Za-z0-9]{32}$/);
      const forumKey = runToEnd(["keys", "create", "--service", "forum", "--name", "grace", "--db", database]);
      const key = forumKey.stdout.trim();
      const forum = forumClient(cli.forumUrl, key);
      // The new tenant has its default community and its agent's name.
      const { post } = expectData(
        await forum.POST("/api/v1/posts", { body: { title: "Hello", content: "from grace" } }),
      );
      expect(post.author.name).toBe("grace");
      expect(post.community.name).toBe("general");
      expectData(await inboxClient(cli.inboxUrl, inboxKey.stdout.trim()).GET("/v0/inboxes", {}));
    } finally {
      cli.child.kill("SIGTERM");
      await cli.exited;
    }
  });

  it("creates no key and no file for a database that does not exist, unless --create-db asks for one", () => {
    const database = join(dir, "mistyped.db");
    const refused = runToEnd(["keys", "create", "--service", "inbox", "--db", database]);
    expect(refused.status).toBe(1);
    expect(refused.stdout).toBe("");
    expect(refused.stderr).toContain(`No database at ${database}.`);
    expect(refused.stderr).toContain("--create-db");
    expect(existsSync(database)).toBe(false);

    const created = runToEnd(["keys", "create", "--service", "inbox", "--db", database, "--create-db"]);
    expect(created.status).toBe(0);
    expect(created.stdout.trim()).toMatch(/^ph_inbox_[A-Za-z0-9]{32}$/);
    expect(existsSync(database)).toBe(true);
  });

  it("removes the development keys when restarted with --no-dev-keys, keeping keys created on purpose", async () => {
    const database = join(dir, "no-dev-keys.db");
    const local = await runCli(["--db", database, ...ON_FREE_PORTS, "--quiet"], 60_000);
    const created = (await runWhileServing(["keys", "create", "--service", "inbox", "--db", database])).stdout.trim();
    local.child.kill("SIGTERM");
    await local.exited;
    const production = await runCli(["--db", database, ...ON_FREE_PORTS, "--quiet", "--no-dev-keys"], 60_000);
    try {
      const status = async (url: string, key: string) =>
        (await fetch(url, { headers: { Authorization: `Bearer ${key}` } })).status;
      expect(await status(`${production.inboxUrl}/v0/inboxes`, TEST_KEYS.inbox)).toBe(401);
      expect(await status(`${production.forumUrl}/api/v1/agents/me`, TEST_KEYS.forum)).toBe(401);
      expect(await status(`${production.inboxUrl}/v0/inboxes`, created)).toBe(200);
      expect(production.stdout()).toContain("  Test       test control off\n");
      const listed = (await runWhileServing(["keys", "list", "--db", database])).stdout;
      expect(listed).not.toMatch(/\byes$/m);
    } finally {
      production.child.kill("SIGTERM");
      await production.exited;
    }
  }, 120_000);

  it("revokes a key while the server runs on the file: the server refuses it within a second of its clock", async () => {
    const database = join(dir, "revoke.db");
    const cli = await runCli(["--db", database, ...ON_FREE_PORTS, "--quiet"], 60_000);
    try {
      const key = (await runWhileServing(["keys", "create", "--service", "inbox", "--db", database])).stdout.trim();
      const status = async () =>
        (await fetch(`${cli.inboxUrl}/v0/inboxes`, { headers: { Authorization: `Bearer ${key}` } })).status;
      // The server's clock, frozen and then moved by test control, bounds how long it honours the key: no sleep, no
      // race with the time the CLI takes.
      const clock = createTestControl({ baseUrl: cli.inboxUrl }).clock;
      await clock.set({ frozen: true });
      expect(await status()).toBe(200);
      const revoked = await runWhileServing(["keys", "revoke", key, "--db", database]);
      expect(revoked.status).toBe(0);
      expect(revoked.stdout).toMatch(/^Revoked key_[0-9a-f]{16}, an inbox key of pod [0-9a-f-]{36}\./);
      let moved = 0;
      while ((await status()) !== 401 && moved < 2_000) {
        await clock.advance(100);
        moved += 100;
      }
      expect(moved).toBeGreaterThan(0);
      expect(moved).toBeLessThanOrEqual(1_000);
      const unknown = await runWhileServing(["keys", "revoke", key, "--db", database]);
      expect(unknown.status).toBe(1);
      expect(unknown.stderr).toContain("No key to revoke");
      expect(unknown.stderr).not.toContain(key);
    } finally {
      cli.child.kill("SIGTERM");
      await cli.exited;
    }
  }, 120_000);

  it("is linked from a file a fresh clone has before any build", () => {
    // pnpm links bins at install, before `pnpm build` makes dist/: a bin pointing into dist/ would not be linked.
    const { bin } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
      bin: Record<string, string>;
    };
    expect(Object.keys(bin)).toEqual(["pigeonhole-server"]);
    for (const target of Object.values(bin)) {
      expect(target).not.toMatch(/^(\.\/)?dist\//);
      expect(existsSync(new URL(`../${target}`, import.meta.url))).toBe(true);
    }
  });

  it("runs test control locally by default, says so in its banner, and turns it off with --no-test-control", async () => {
    const on = await runCli(["--memory", ...ON_FREE_PORTS, "--quiet"]);
    const clock = (base: string, key = "pigeonhole-test-control-dev") =>
      fetch(`${base}/_test/clock`, { headers: { Authorization: `Bearer ${key}` } });
    expect((await clock(on.inboxUrl)).status).toBe(200);
    expect((await clock(on.forumUrl)).status).toBe(200);
    on.child.kill("SIGTERM");
    await on.exited;
    expect(on.stdout()).toContain(`  Test       ${on.inboxUrl}/_test   key: pigeonhole-test-control-dev\n`);

    const off = await runCli(["--memory", ...ON_FREE_PORTS, "--quiet", "--no-test-control"]);
    // As unknown as any other path: 404 to a valid key of the service.
    expect((await clock(off.inboxUrl, TEST_KEYS.inbox)).status).toBe(404);
    off.child.kill("SIGTERM");
    await off.exited;
    expect(off.stdout()).toContain("  Test       test control off\n");
  });

  it("takes a test-control key of its own, which the banner does not print", async () => {
    const cli = await runCli(["--memory", ...ON_FREE_PORTS, "--quiet", "--test-control-key", "own-secret-key"]);
    const answer = await fetch(`${cli.inboxUrl}/_test/clock`, { headers: { Authorization: "Bearer own-secret-key" } });
    expect(answer.status).toBe(200);
    cli.child.kill("SIGTERM");
    await cli.exited;
    expect(cli.stdout()).toContain(`  Test       ${cli.inboxUrl}/_test\n`);
    expect(cli.stdout()).not.toContain("own-secret-key");
    expect(cli.stderr()).not.toContain("own-secret-key");
  });

  it("refuses --test-control without development keys unless a key is given", () => {
    const { PIGEONHOLE_TEST_CONTROL_KEY: _, ...env } = process.env;
    const refused = spawnSync(process.execPath, [CLI_ENTRY, "--memory", "--no-dev-keys", "--test-control"], {
      encoding: "utf8",
      env: { ...env, NODE_NO_WARNINGS: "1" },
    });
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain("--test-control-key");
    const both = runToEnd(["--memory", "--no-test-control", "--test-control-key", "k"]);
    expect(both.status).toBe(2);
    expect(runToEnd(["--help"]).stdout).toContain("--test-control, --no-test-control");
  });

  it("explains the keys commands and key rotation, and refuses their bad flags", () => {
    const help = runToEnd(["--help"]).stdout;
    expect(help).toContain("pigeonhole-server keys list [--service inbox|forum]");
    expect(help).toContain("pigeonhole-server keys revoke <key id or key>");
    expect(help).toContain("Rotating an inbox key without downtime");
    expect(help).toContain("keys create --service inbox --pod <pod id>");
    expect(runToEnd(["keys", "revoke"]).status).toBe(2);
    expect(runToEnd(["keys", "create", "--service", "forum", "--pod", "p"]).stderr).toContain("--service inbox");
    expect(runToEnd(["keys", "list", "--service", "mail"]).status).toBe(2);
  }, 120_000);

  it("explains its usage and refuses bad flags", () => {
    const help = runToEnd(["--help"]);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain("pigeonhole-server keys create --service inbox|forum");
    expect(help.stdout).toContain("default ./pigeonhole.db");
    expect(help.stdout).toContain("--create-db");
    const bad = runToEnd(["--inbox-port", "many"]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("--inbox-port takes a whole number");
    const both = runToEnd(["--memory", "--db", "x.db"]);
    expect(both.status).toBe(2);
    const missing = runToEnd(["keys", "create"]);
    expect(missing.stderr).toContain("--service inbox or --service forum");
    const unknown = runToEnd(["--nope"]);
    expect(unknown.status).not.toBe(0);
  });
});

/** A command line of each option and what it reads: an option added to the table needs one here. */
const EXAMPLES: { [Name in OptionName]: { argv: string[]; value: NonNullable<CommandLineValues[Name]> } } = {
  database: { argv: ["--database", "other.db"], value: "other.db" },
  service: { argv: ["--service", "forum"], value: "forum" },
  name: { argv: ["--name", "ada"], value: "ada" },
  pod: { argv: ["--pod", "pod-1"], value: "pod-1" },
  createDb: { argv: ["--create-db"], value: true },
  databasePoolSize: { argv: ["--database-pool-size", "3"], value: 3 },
  databaseWaitMs: { argv: ["--database-wait-ms", "0"], value: 0 },
  memory: { argv: ["--memory"], value: true },
  devKeys: { argv: ["--no-dev-keys"], value: false },
  host: { argv: ["--host", "127.0.0.2"], value: "127.0.0.2" },
  inboxPort: { argv: ["--inbox-port", "4011"], value: 4011 },
  forumPort: { argv: ["--forum-port", "4021"], value: 4021 },
  metricsPort: { argv: ["--metrics-port", "9464"], value: 9464 },
  metricsHost: { argv: ["--metrics-host", "127.0.0.4"], value: "127.0.0.4" },
  domains: {
    argv: ["--domain", "a.example.com", "--domain", "b.example.com"],
    value: ["a.example.com", "b.example.com"],
  },
  smtpPort: { argv: ["--smtp-port", "2526"], value: 2526 },
  smtpHost: { argv: ["--smtp-host", "127.0.0.3"], value: "127.0.0.3" },
  smtp: { argv: ["--no-smtp"], value: false },
  smtpMaxSize: { argv: ["--smtp-max-size", "1000000"], value: 1_000_000 },
  smtpConnectionsPerAddress: { argv: ["--smtp-connections-per-address", "3"], value: 3 },
  smtpMaxConnections: { argv: ["--smtp-max-connections", "7"], value: 7 },
  smtpTlsCert: { argv: ["--smtp-tls-cert", "cert.pem"], value: "cert.pem" },
  smtpTlsKey: { argv: ["--smtp-tls-key", "key.pem"], value: "key.pem" },
  smtpRelay: { argv: ["--smtp-relay", "smtp://relay.example.com"], value: "smtp://relay.example.com" },
  smtpRelayInsecure: { argv: ["--smtp-relay-insecure"], value: true },
  smtpHeloName: { argv: ["--smtp-helo-name", "out.example.com"], value: "out.example.com" },
  smtpRetryDelaysMs: { argv: ["--smtp-retry-delays", "1000, 2000"], value: [1000, 2000] },
  smtpRelayClaimMs: { argv: ["--smtp-relay-claim-ms", "120000"], value: 120_000 },
  dkimDomain: { argv: ["--dkim-domain", "a.example.com"], value: "a.example.com" },
  dkimSelector: { argv: ["--dkim-selector", "s1"], value: "s1" },
  dkimKey: { argv: ["--dkim-key", "dkim.pem"], value: "dkim.pem" },
  allowPrivateWebhooks: { argv: ["--allow-private-webhooks"], value: true },
  trustedProxies: {
    argv: ["--trusted-proxy", "10.0.0.1", "--trusted-proxy", "10.0.0.2"],
    value: ["10.0.0.1", "10.0.0.2"],
  },
  drainDelayMs: { argv: ["--drain-delay-ms", "5000"], value: 5_000 },
  inboxRequestsPerMinute: { argv: ["--inbox-requests-per-minute", "500"], value: 500 },
  inboxSendsPerDay: { argv: ["--inbox-sends-per-day", "50"], value: 50 },
  forumReadsPerMinute: { argv: ["--forum-reads-per-minute", "61"], value: 61 },
  forumWritesPerMinute: { argv: ["--forum-writes-per-minute", "31"], value: 31 },
  forumRegistrationsPerHour: { argv: ["--forum-registrations-per-hour", "11"], value: 11 },
  authFailuresPerMinute: { argv: ["--auth-failures-per-minute", "70"], value: 70 },
  webhookRetryDelaysMs: { argv: ["--webhook-retry-delays", "1000,10000"], value: [1000, 10_000] },
  webhookClaimMs: { argv: ["--webhook-claim-ms", "40000"], value: 40_000 },
  claimLeaseMs: { argv: ["--claim-lease-ms", "5000"], value: 5_000 },
  webhooksPerPod: { argv: ["--webhooks-per-pod", "5"], value: 5 },
  listEntriesPerPod: { argv: ["--list-entries-per-pod", "7"], value: 7 },
  draftsPerPod: { argv: ["--drafts-per-pod", "9"], value: 9 },
  websocketConnectionsPerKey: { argv: ["--websocket-connections-per-key", "4"], value: 4 },
  eventPollMs: { argv: ["--event-poll-ms", "500"], value: 500 },
  testControl: { argv: ["--test-control"], value: true },
  testControlKey: { argv: ["--test-control-key", "own-key"], value: "own-key" },
  quiet: { argv: ["--quiet"], value: true },
  help: { argv: ["-h"], value: true },
  version: { argv: ["-v"], value: true },
};

describe("pigeonhole-server's options", () => {
  it("lists every option in --help with its default", () => {
    const help = runToEnd(["--help"]).stdout.replaceAll(/\s+/g, " ");
    for (const [name, option] of optionEntries()) {
      const shown = defaultOf(option);
      expect({ name, listed: help.includes(` ${synopsis(option)} `) }).toEqual({ name, listed: true });
      expect({ name, default: shown === undefined || help.includes(`default ${plain(shown)})`) }).toEqual({
        name,
        default: true,
      });
    }
    expect(help).toContain("PIGEONHOLE_DATABASE_URL stands for --database.");
    expect(help).toContain("--db is the older name of --database.");
  });

  it.each(Object.entries(EXAMPLES))("reads %s from the command line", (name, { argv, value }) => {
    expect(parseCommandLine(argv).values).toEqual({ [name]: value });
  });

  it("reads the older name of --database", () => {
    expect(parseCommandLine(["--db", "old.db"]).values).toEqual({ database: "old.db" });
    expect(() => parseCommandLine(["--db", "old.db", "--database", "new.db"])).toThrow(
      new UsageError("--db is the older name of --database; give one of them."),
    );
  });

  it("hands startServer each option that sets one of its options, as given", () => {
    const setting = optionEntries().flatMap(([name, option]) =>
      option.sets === undefined ? [] : [{ name: name as OptionName, sets: option.sets }],
    );
    const options = startOptions(parseCommandLine(setting.flatMap(({ name }) => EXAMPLES[name].argv)).values, {});
    for (const { name, sets } of setting) {
      const [property, limit] = sets.split(".");
      const given =
        limit === undefined ? options[property as keyof ServerOptions] : options.limits?.[limit as keyof ServerLimits];
      expect({ name, given }).toEqual({ name, given: EXAMPLES[name].value });
    }
    expect(resolveOptions({ ...options, logger: false }, {}).limits.inboxRequestsPerMinute).toBe(500);
  });

  it("refuses a value its option cannot read, naming the flag", () => {
    const numeric = optionEntries().filter(
      ([, option]) => option.kind === "value" && (option.parse === wholeNumber || option.parse === wholeNumbers),
    );
    expect(numeric.map(([, option]) => option.flag)).toContain("smtp-retry-delays");
    for (const [, { flag }] of numeric) {
      expect(() => parseCommandLine([`--${flag}`, "many"])).toThrow(
        new UsageError(`--${flag} takes a whole number, not 'many'.`),
      );
    }
    expect(() => parseCommandLine(["--smtp-retry-delays", "1000,soon"])).toThrow(
      new UsageError("--smtp-retry-delays takes a whole number, not 'soon'."),
    );
    const refused = runToEnd(["--webhook-claim-ms", "1m"]);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain("pigeonhole-server: --webhook-claim-ms takes a whole number, not '1m'.");
    expect(refused.stderr).toContain("Options of start:");
  });

  it("starts with every option of start given (--memory for --database, not --no-smtp), and applies them", async () => {
    const dkimKey = join(dir, "dkim.pem");
    const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    writeFileSync(dkimKey, privateKey.export({ type: "pkcs8", format: "pem" }));
    const [tlsCert, tlsKey] = [join(dir, "tls-cert.pem"), join(dir, "tls-key.pem")];
    const selfSigned = ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];
    execFileSync(
      "openssl",
      [...selfSigned, "-days", "1", "-subj", "/CN=localhost", "-keyout", tlsKey, "-out", tlsCert],
      {
        stdio: "ignore",
      },
    );
    const given = (names: OptionName[]) => names.flatMap((name) => EXAMPLES[name].argv);
    const cli = await runCli([
      ...ON_FREE_PORTS,
      ...given(["memory", "quiet", "databasePoolSize", "domains", "smtpMaxSize", "smtpConnectionsPerAddress"]),
      ...given(["smtpMaxConnections", "smtpRelay", "smtpRelayInsecure", "smtpRetryDelaysMs", "smtpRelayClaimMs"]),
      ...given(["dkimDomain", "dkimSelector", "allowPrivateWebhooks", "trustedProxies", "inboxRequestsPerMinute"]),
      ...given(["inboxSendsPerDay", "forumReadsPerMinute", "forumWritesPerMinute", "forumRegistrationsPerHour"]),
      ...given(["authFailuresPerMinute", "webhookRetryDelaysMs", "webhookClaimMs", "webhooksPerPod"]),
      ...given(["websocketConnectionsPerKey", "eventPollMs", "testControlKey", "claimLeaseMs", "listEntriesPerPod"]),
      ...given(["draftsPerPod"]),
      ...["--host", "127.0.0.1", "--smtp-host", "127.0.0.1", "--dkim-key", dkimKey, "--dev-keys", "--test-control"],
      ...["--smtp-tls-cert", tlsCert, "--smtp-tls-key", tlsKey],
    ]);
    try {
      const inbox = await fetch(`${cli.inboxUrl}/v0/inboxes`, {
        headers: { Authorization: `Bearer ${TEST_KEYS.inbox}` },
      });
      expect(inbox.headers.get("X-RateLimit-Limit")).toBe("500");
      const forum = await fetch(`${cli.forumUrl}/api/v1/agents/me`, {
        headers: { Authorization: `Bearer ${TEST_KEYS.forum}` },
      });
      expect(forum.headers.get("X-RateLimit-Limit")).toBe("61");
      const control = await fetch(`${cli.inboxUrl}/_test/clock`, { headers: { Authorization: "Bearer own-key" } });
      expect(control.status).toBe(200);
    } finally {
      cli.child.kill("SIGTERM");
      await cli.exited;
    }
    // Read once the process has ended: the banner's later lines may follow the addresses runCli waits for.
    expect(cli.stdout()).toContain("mail for: a.example.com, b.example.com");
    expect(cli.stdout()).toContain("Outbound   through smtp://relay.example.com");
  });
});
