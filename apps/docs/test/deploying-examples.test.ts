import { type ChildProcess, execFile, spawn } from "node:child_process";
import { once } from "node:events";
import { lstat, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { homedir, tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { type Nginx, startNginx } from "@pigeonhole/nginx-testing";
import { freshEnv } from "@pigeonhole/pack-check/fresh-env";
import { packWithWorkspaceDependencies, type Tarballs } from "@pigeonhole/pack-check/pack-tarballs";
import { type PostgresCluster, startPostgres } from "@pigeonhole/postgres-testing";
import { freePort } from "@pigeonhole/test-processes";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { SITE_ROOT } from "./built-site.ts";
import { type LoadRequest, startSteadyLoad } from "./steady-load.ts";

// The deployment guide's commands, run on this machine: its PostgreSQL role and database in a throw-away cluster, the
// server installed with npm from the packed tarballs, its template unit's two instances, its nginx configuration in a
// throw-away nginx in front of them (TLS, the WebSocket stream, the access log), a rolling upgrade under steady load
// that loses no request, a backup and its restore, and the one-instance SQLite setup.
//
// What changes the machine itself is not run: creating the `pigeonhole` user, and systemd (`systemctl` starts the
// unit's ExecStart, which the test runs instead, with the EnvironmentFile's variables). Every other command runs as
// written, through `sh`, with these substitutions: the guide's paths (/opt, /etc, /var) are folders of a scratch
// directory, `sudo` and `sudo -u <user>` are dropped (the cluster's superuser is `postgres`, named by PGUSER), the
// database host is the cluster's, each fixed port is a free one, and npm installs `@pigeonhole/server` from its
// tarball, packed from this workspace, rather than from the registry.

const run = promisify(execFile);

/** The ports the guide names: each instance's Inbox API, Forum API and SMTP port. */
const GUIDE_PORTS = [4011, 4012, 4021, 4022, 2521, 2522] as const;

/** The bin `npm install @pigeonhole/server` links, in the guide's /opt/pigeonhole. */
const INSTALLED_BIN = "opt/pigeonhole/node_modules/.bin/pigeonhole-server";

/**
 * Settings the test adds to the env file: the load of the rolling upgrade sends more requests a minute than a real
 * pod's default limits allow, and a 429 would count as a failed request.
 */
const LOAD_LIMITS = [
  "PIGEONHOLE_INBOX_REQUESTS_PER_MINUTE=100000",
  "PIGEONHOLE_FORUM_READS_PER_MINUTE=100000",
  "PIGEONHOLE_FORUM_WRITES_PER_MINUTE=100000",
];

const example = (file: string) => readFile(join(SITE_ROOT, "examples/guides/deploying", file), "utf8");

/** A file the server package ships for deployments (its `deploy/` folder), which the guide shows. */
const shipped = (file: string) =>
  readFile(fileURLToPath(import.meta.resolve(`@pigeonhole/server/deploy/${file}`)), "utf8");

/** A server process, as systemd would run it, with what it logged on stderr. */
interface Instance {
  readonly child: ChildProcess;
  readonly log: () => string;
  stop(): Promise<void>;
}

function startInstance(program: string, args: readonly string[], env: NodeJS.ProcessEnv, cwd?: string): Instance {
  const child = spawn(program, args, { cwd, env, stdio: ["ignore", "ignore", "pipe"] });
  let log = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    log += chunk.toString();
  });
  return {
    child,
    log: () => log,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = once(child, "exit");
        child.kill("SIGTERM"); // what `systemctl stop` sends; it then waits for the process to exit
        await exited;
      }
    },
  };
}

/** `KEY=value` lines, as systemd reads an EnvironmentFile. */
function environmentFile(text: string): Record<string, string> {
  return Object.fromEntries(
    text
      .split("\n")
      .filter((line) => /^[A-Z_]+=/.test(line))
      .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
  );
}

/** A self-signed certificate and its key, for one name, as `<dir>/<name>.pem` and `<dir>/<name>.key`. */
async function selfSignedCertificate(dir: string, name: string): Promise<void> {
  await run("openssl", [
    "req",
    "-x509",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-days",
    "1",
    "-subj",
    `/CN=${name}`,
    "-addext",
    `subjectAltName=DNS:${name}`,
    "-keyout",
    join(dir, `${name}.key`),
    "-out",
    join(dir, `${name}.pem`),
  ]);
}

describe("the deployment guide's commands", () => {
  let cluster: PostgresCluster;
  let scratch: string;
  let tarballs: Tarballs;
  /** The guide's fixed ports, each mapped to a free one. */
  const ports = new Map<number, number>();
  const instances = new Map<number, Instance>();
  let nginx: Nginx | undefined;
  /** The database URL database.sh printed, with the password it made. */
  let databaseUrl: string;
  let inboxKey: string;
  let forumKey: string;

  /** The tarball of a workspace package, which npm installs as the registry's copy. */
  const tarballOf = (name: string) => {
    const tarball = tarballs.get(name);
    if (!tarball) {
      throw new Error(`No tarball of ${name}.`);
    }
    return tarball;
  };

  /** The guide's text as it runs on this machine. */
  function onThisMachine(text: string): string {
    let local = text
      .replaceAll(/sudo -u \w+ /g, "")
      .replaceAll("sudo install -d -o pigeonhole -g pigeonhole", "install -d")
      .replaceAll(/^(cd \S+ && )?sudo (mkdir|npm|cp) /gm, "$1$2 ")
      .replaceAll(
        /^((cd \S+ && )?npm install .*)@pigeonhole\/server(@latest)?$/gm,
        `$1${tarballOf("@pigeonhole/server")}`,
      )
      .replaceAll("/opt/pigeonhole", join(scratch, "opt/pigeonhole"))
      .replaceAll("/etc/pigeonhole", join(scratch, "etc/pigeonhole"))
      .replaceAll("/etc/systemd/system/", `${join(scratch, "etc/systemd/system")}/`)
      .replaceAll("/etc/ssl/", `${join(scratch, "etc/ssl")}/`)
      .replaceAll("/var/lib/pigeonhole", join(scratch, "var/lib/pigeonhole"))
      .replaceAll("/var/log/nginx/", `${join(scratch, "var/log/nginx")}/`)
      .replaceAll("db.internal:5432", `127.0.0.1:${cluster.port}`);
    for (const [guidePort, port] of ports) {
      local = local.replaceAll(new RegExp(`\\b${guidePort}\\b`, "g"), String(port));
    }
    return local;
  }

  /**
   * The environment a reader's shell has (a user's, with how to reach the registry), with Node 24 first on PATH (the
   * bin's `#!/usr/bin/env node`), and the cluster's superuser for `psql` and the PostgreSQL programs.
   */
  const shellEnv = (): NodeJS.ProcessEnv => ({
    ...freshEnv(),
    PATH: [dirname(process.execPath), freshEnv().PATH].join(delimiter),
    HOME: scratch,
    LC_ALL: "C",
    PGHOST: "127.0.0.1",
    PGPORT: String(cluster.port),
    PGUSER: "postgres",
    // npm keeps its cache where the machine's user has it (a warm cache saves downloads), and says nothing extra.
    npm_config_cache: join(homedir(), ".npm"),
    npm_config_prefer_offline: "true",
    npm_config_audit: "false",
    npm_config_fund: "false",
    npm_config_update_notifier: "false",
  });

  /**
   * Runs a script's lines that are not systemd's or useradd's, as written but for the substitutions, and answers
   * stdout. It has no terminal and nothing on standard input: a command that prompts fails.
   */
  async function runScript(script: string, options: { cwd?: string; timeoutMs?: number } = {}): Promise<string> {
    const lines = onThisMachine(script)
      .split("\n")
      .filter((line) => !/^(sudo )?(systemctl|useradd) /.test(line));
    const child = spawn("sh", ["-ec", lines.join("\n")], {
      cwd: options.cwd ?? scratch,
      env: shellEnv(),
      // A session of its own, without a controlling terminal: nothing can ask a person for input.
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 60_000);
    // "close" rather than "exit": what it printed has been read.
    const [code] = (await once(child, "close")) as [number | null];
    clearTimeout(timer);
    if (code !== 0) {
      throw new Error(`sh exited with ${code}:\n${lines.join("\n")}\n${stderr}`);
    }
    return stdout;
  }

  /** The unit's ExecStart for one instance: its program and arguments, and the environment it runs with. */
  async function execStart(instance: number): Promise<{ program: string; args: string[]; env: NodeJS.ProcessEnv }> {
    // The unit as installed: the package's copy, under /opt/pigeonhole.
    const unitFile = await readFile(
      join(scratch, "opt/pigeonhole/node_modules/@pigeonhole/server/deploy/pigeonhole@.service"),
      "utf8",
    );
    // systemd joins a line ending in a backslash to the next.
    const unit = onThisMachine(unitFile.replaceAll(/\\\n\s*/g, " ").replaceAll("%i", String(instance)));
    const command = /^ExecStart=(.*)$/m.exec(unit)?.[1] ?? "";
    const [program = "", ...args] = command.split(/\s+/);
    expect(program).toBe(join(scratch, INSTALLED_BIN));
    const envFile = /^EnvironmentFile=(.*)$/m.exec(unit)?.[1] ?? "";
    const env = { PATH: shellEnv().PATH, ...environmentFile(await readFile(envFile, "utf8")) };
    return { program, args, env };
  }

  async function startUnitInstance(instance: number): Promise<void> {
    const { program, args, env } = await execStart(instance);
    instances.set(instance, startInstance(program, args, env));
  }

  /** The installed server's bin with these arguments, as a process of its own. */
  const startInstalled = (args: readonly string[], env: NodeJS.ProcessEnv, cwd?: string) =>
    startInstance(join(scratch, INSTALLED_BIN), args, env, cwd);

  /** curl through nginx, as a client on the internet would reach it: the names resolve to it, its certificates trusted. */
  async function throughNginx(args: readonly string[]): Promise<string> {
    const { stdout } = await run("curl", ["-fsS", ...args], { env: shellEnv(), timeout: 20_000 });
    return stdout;
  }

  const publicUrl = (name: "inbox" | "forum", path: string) => `https://${name}.example.com:${nginx?.ports[0]}${path}`;

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), "pigeonhole-deploying-"));
    for (const guidePort of GUIDE_PORTS) {
      ports.set(guidePort, await freePort());
    }
    [cluster, tarballs] = await Promise.all([
      startPostgres(),
      // What the registry would serve: the server's tarball and those of the packages it depends on.
      packWithWorkspaceDependencies("@pigeonhole/server", join(scratch, "registry")),
    ]);
    // The folders the guide writes to (each made by a command the test does not run: the machine's own).
    for (const folder of ["etc/pigeonhole", "etc/ssl", "etc/systemd/system", "var/log/nginx"]) {
      await mkdir(join(scratch, folder), { recursive: true });
    }
  }, 120_000);

  afterAll(async () => {
    await Promise.all([...instances.values()].map((instance) => instance.stop()));
    await nginx?.stop();
    await cluster?.stop();
    if (scratch) {
      await rm(scratch, { recursive: true, force: true });
    }
  }, 60_000);

  it("the shipped settings agree: nginx's keep-alive, the drain delay, the unit's stop timeout, the Kubernetes probes", async () => {
    const seconds = (text: string, pattern: RegExp) => Number(pattern.exec(text)?.[1] ?? Number.NaN);
    const nginxConf = await example("nginx.conf");
    const drainMs = seconds(await shipped("pigeonhole.env"), /^PIGEONHOLE_DRAIN_DELAY_MS=(\d+)$/m);
    const stopTimeout = seconds(await shipped("pigeonhole@.service"), /^TimeoutStopSec=(\d+)$/m);
    const keepaliveTimeouts = [...nginxConf.matchAll(/keepalive_timeout (\d+)s;/g)].map((match) => Number(match[1]));
    // nginx lets go of an idle connection before the server does (5 s), and before a stopping server closes its ports.
    expect(keepaliveTimeouts).toEqual([4, 4]);
    expect(drainMs).toBeGreaterThan(4_000);
    // systemd waits for the drain and the 10 s given to requests in flight before it kills.
    expect(stopTimeout * 1_000).toBeGreaterThan(drainMs + 10_000);
    // The guide's `sleep` between restarts is nginx's fail_timeout, after which the restarted instance is used again.
    const failTimeouts = new Set([...nginxConf.matchAll(/max_fails=1 fail_timeout=(\d+)s;/g)].map((match) => match[1]));
    expect([...failTimeouts]).toEqual([seconds(await example("upgrade.sh"), /^sleep (\d+)/m).toString()]);

    const kubernetes = await example("kubernetes-probes.yaml");
    const probe = (name: string) => {
      const block = new RegExp(`${name}:\\n((?:\\s{8}.*\\n)+)`).exec(kubernetes)?.[1] ?? "";
      return {
        path: /path: (\S+),/.exec(block)?.[1],
        periodSeconds: seconds(block, /periodSeconds: (\d+)/),
        timeoutSeconds: seconds(block, /timeoutSeconds: (\d+)/),
        failureThreshold: seconds(block, /failureThreshold: (\d+)/),
      };
    };
    expect(probe("readinessProbe")).toEqual({
      path: "/ready",
      periodSeconds: 5,
      timeoutSeconds: 3,
      failureThreshold: 2,
    });
    expect(probe("livenessProbe")).toEqual({
      path: "/health",
      periodSeconds: 10,
      timeoutSeconds: 3,
      failureThreshold: 3,
    });
    // The pod stays up until Kubernetes has taken it out (two failed probes 5 s apart), and is not killed mid-drain.
    const kubernetesDrainMs = seconds(kubernetes, /PIGEONHOLE_DRAIN_DELAY_MS\n\s+value: "(\d+)"/);
    expect(kubernetesDrainMs).toBeGreaterThan(5 * 2 * 1_000);
    expect(seconds(kubernetes, /terminationGracePeriodSeconds: (\d+)/) * 1_000).toBeGreaterThan(
      kubernetesDrainMs + 10_000,
    );
  });

  it("database.sh makes the role, with a password, and the database it owns, asking nothing", async () => {
    const printed = (await runScript(await example("database.sh"))).trim().split("\n");
    databaseUrl = printed.at(-1) ?? "";
    expect(databaseUrl).toMatch(
      new RegExp(`^postgres://pigeonhole:[0-9a-f]{32}@127\\.0\\.0\\.1:${cluster.port}/pigeonhole$`),
    );
    const { stdout } = await run(
      "psql",
      [
        "-tA",
        "-c",
        "SELECT pg_get_userbyid(datdba) FROM pg_database WHERE datname = 'pigeonhole'",
        "-c",
        "SELECT rolcanlogin, rolpassword LIKE 'SCRAM-SHA-256$%' FROM pg_authid WHERE rolname = 'pigeonhole'",
      ],
      { env: shellEnv() },
    );
    expect(stdout.trim().split("\n")).toEqual(["pigeonhole", "t|t"]);
  });

  it("install.sh installs the server with npm, and the env file comes from the package it installed", async () => {
    // The registry serves the server's own packages by version; here its tarballs stand in for them.
    const optDir = join(scratch, "opt/pigeonhole");
    await mkdir(optDir, { recursive: true });
    const overrides = Object.fromEntries(
      [...tarballs]
        .filter(([name]) => name !== "@pigeonhole/server")
        .map(([name, tarball]) => [name, `file:${tarball}`]),
    );
    await writeFile(join(optDir, "package.json"), JSON.stringify({ private: true, overrides }, null, 2));

    await runScript(await example("install.sh"), { timeoutMs: 240_000 });
    // A real install, not a link to the workspace.
    const installed = join(optDir, "node_modules/@pigeonhole/server");
    expect((await lstat(installed)).isSymbolicLink()).toBe(false);
    const manifest = JSON.parse(await readFile(join(optDir, "package.json"), "utf8"));
    expect(manifest.dependencies["@pigeonhole/server"]).toMatch(/^file:.*\.tgz$/);
    const { stdout } = await run(join(scratch, INSTALLED_BIN), ["--version"], { env: shellEnv() });
    expect(stdout.trim()).toBe(JSON.parse(await readFile(join(installed, "package.json"), "utf8")).version);

    // The reader copies the package's sample and writes the URL database.sh printed into it (sudoedit).
    const sample = await readFile(join(installed, "deploy/pigeonhole.env"), "utf8");
    expect(sample).toBe(await shipped("pigeonhole.env"));
    const env = sample.replace(/^PIGEONHOLE_DATABASE_URL=.*$/m, `PIGEONHOLE_DATABASE_URL=${databaseUrl}`);
    await writeFile(join(scratch, "etc/pigeonhole/env"), [onThisMachine(env), ...LOAD_LIMITS, ""].join("\n"));
  }, 300_000);

  it("keys-create.sh prints a key for a new pod and one for an agent, reading the database from the env file", async () => {
    const keys = (await runScript(await example("keys-create.sh"))).trim().split("\n");
    expect(keys).toHaveLength(2);
    [inboxKey = "", forumKey = ""] = keys;
    expect(inboxKey).toMatch(/^ph_inbox_[A-Za-z0-9]{32}$/);
    expect(forumKey).toMatch(/^ph_forum_[A-Za-z0-9]{32}$/);
  });

  it("start.sh: both instances of the template unit run side by side, each on its own ports", async () => {
    await startUnitInstance(1);
    await startUnitInstance(2);
    const health = await runScript(await example("start.sh"));
    expect(health).toBe('{"status":"ready"}{"status":"ready"}');
    // The script put the package's unit where systemd reads units.
    expect(await readFile(join(scratch, "etc/systemd/system/pigeonhole@.service"), "utf8")).toBe(
      await shipped("pigeonhole@.service"),
    );
    // Both still run, each receiving mail on its own SMTP port.
    for (const [instance, smtpPort] of [
      [1, 2521],
      [2, 2522],
    ] as const) {
      expect(instances.get(instance)?.child.exitCode, instances.get(instance)?.log()).toBeNull();
      const { stdout } = await run("swaks", ["--server", `127.0.0.1:${ports.get(smtpPort)}`, "--quit-after", "EHLO"]);
      expect(stdout).toMatch(/^<- {2}220 /m);
    }
  }, 60_000);

  it("nginx.conf serves both APIs over TLS from both instances, with the WebSocket stream, logging no key", async () => {
    const sslDir = join(scratch, "etc/ssl");
    await selfSignedCertificate(sslDir, "inbox.example.com");
    await selfSignedCertificate(sslDir, "forum.example.com");
    const config = onThisMachine(await example("nginx.conf"));
    expect(config.match(/listen 443 ssl;/g)).toHaveLength(2);
    nginx = await startNginx({
      http: ({ ports: [port] }) => config.replaceAll("listen 443", `listen 127.0.0.1:${port}`),
    });
    const port = nginx.ports[0];
    // curl reads ~/.curlrc: the two names lead to nginx, whose certificates it trusts.
    const bundle = join(scratch, "trusted.pem");
    await writeFile(
      bundle,
      (await readFile(join(sslDir, "inbox.example.com.pem"), "utf8")) +
        (await readFile(join(sslDir, "forum.example.com.pem"), "utf8")),
    );
    await writeFile(
      join(scratch, ".curlrc"),
      [
        `resolve = inbox.example.com:${port}:127.0.0.1`,
        `resolve = forum.example.com:${port}:127.0.0.1`,
        `cacert = ${bundle}`,
        "",
      ].join("\n"),
    );

    expect(await throughNginx([publicUrl("inbox", "/health")])).toBe('{"status":"ok"}');
    const agent = JSON.parse(
      await throughNginx(["-H", `Authorization: Bearer ${forumKey}`, publicUrl("forum", "/api/v1/agents/me")]),
    );
    expect(agent.agent.name).toBe("triage");

    // The reference's curl example, pointed at the public address: the inbox is made in the hosted domain.
    const createInbox = await readFile(join(SITE_ROOT, "examples/inbox/createInbox.sh"), "utf8");
    const { stdout: created } = await run("sh", ["-ec", createInbox.replace(/^curl /m, "curl -fsS ")], {
      env: {
        ...shellEnv(),
        PIGEONHOLE_INBOX_BASE_URL: publicUrl("inbox", ""),
        PIGEONHOLE_INBOX_API_KEY: inboxKey,
      },
    });
    expect(JSON.parse(created).inbox_id).toBe("support@example.com");

    // Requests are shared between the instances.
    for (let i = 0; i < 6; i++) {
      await throughNginx(["-H", `Authorization: Bearer ${inboxKey}`, publicUrl("inbox", "/v0/inboxes")]);
    }
    for (const instance of instances.values()) {
      expect(instance.log()).toMatch(/"path":"\/v0\/inboxes"/);
    }

    // A browser's stream, key in the query, through nginx; mail arrives at instance 2's SMTP port.
    const stream = new WebSocket(`${publicUrl("inbox", "/v0/ws").replace("https:", "wss:")}?api_key=${inboxKey}`, {
      ca: await readFile(bundle),
      lookup: (_host, options, callback) =>
        options.all ? callback(null, [{ address: "127.0.0.1", family: 4 }]) : callback(null, "127.0.0.1", 4),
    });
    const frames: { type?: string; event_type?: string; message?: { subject?: string; message_id?: string } }[] = [];
    stream.on("message", (data) => frames.push(JSON.parse(String(data))));
    await once(stream, "open");
    stream.send(JSON.stringify({ type: "subscribe", event_types: ["message.received"] }));
    await expect.poll(() => frames.some((frame) => frame.type === "subscribed")).toBe(true);
    const { stdout: sent } = await run("swaks", [
      "--server",
      `127.0.0.1:${ports.get(2522)}`,
      "--from",
      "grace@example.org",
      "--to",
      "support@example.com",
      "--header",
      "Subject: Through the balancer",
      "--body",
      "Hello.",
    ]);
    expect(sent).toMatch(/^ -> \.\r?\n<- {2}250 /m);
    await expect
      .poll(() => frames.find((frame) => frame.event_type === "message.received")?.message?.subject, {
        timeout: 15_000,
      })
      .toBe("Through the balancer");
    // The message's source as JSON: its signed link names the address the client reached, not one it claims.
    const messageId = frames.find((frame) => frame.event_type === "message.received")?.message?.message_id ?? "";
    const source = JSON.parse(
      await throughNginx([
        ...["-H", `Authorization: Bearer ${inboxKey}`, "-H", "Accept: application/json"],
        ...["-H", "X-Forwarded-Host: evil.example", "-H", "X-Forwarded-Proto: http"],
        publicUrl("inbox", `/v0/inboxes/support%40example.com/messages/${encodeURIComponent(messageId)}/raw`),
      ]),
    ) as { download_url: string };
    expect(new URL(source.download_url).origin).toBe(new URL(publicUrl("inbox", "/")).origin);
    expect(await throughNginx([source.download_url])).toMatch(/^Subject: Through the balancer\r?$/m);
    stream.close();
    await once(stream, "close");

    // The stream's line is in the access log, without its query, and so without the key.
    const accessLog = join(scratch, "var/log/nginx/pigeonhole.access.log");
    await expect
      .poll(async () => await readFile(accessLog, "utf8").catch(() => ""))
      .toMatch(/"GET \/v0\/ws HTTP\/1\.1" 101 /);
    const logged = await readFile(accessLog, "utf8");
    expect(logged).not.toContain("api_key");
    expect(logged).not.toContain(inboxKey);

    // A client's request id leads to its instance's log line, as `journalctl ... | grep <request id>` finds it.
    const { stdout: headers } = await run(
      "curl",
      [
        "-fsS",
        "-o",
        "/dev/null",
        "-D",
        "-",
        "-H",
        `Authorization: Bearer ${inboxKey}`,
        publicUrl("inbox", "/v0/inboxes"),
      ],
      { env: shellEnv() },
    );
    const requestId = /^x-request-id: (\S+)/im.exec(headers)?.[1] ?? "no request id";
    await expect
      .poll(() => [...instances.values()].some((instance) => instance.log().includes(`"request_id":"${requestId}"`)))
      .toBe(true);
  }, 90_000);

  it("upgrade.sh: restarting one instance at a time under steady load, no request through nginx fails", async ({
    annotate,
  }) => {
    const lines = (await example("upgrade.sh")).split("\n");
    const restarts = lines.flatMap((line, index) =>
      /^sudo systemctl restart pigeonhole@(\d)$/.test(line) ? [{ index, instance: Number(line.at(-1)) }] : [],
    );
    expect(restarts.map(({ instance }) => instance)).toEqual([1, 2]);

    // A steady mix of reads and writes through nginx, from a few clients at once, for the whole upgrade.
    const runId = Date.now().toString(36);
    const asInbox = { authorization: `Bearer ${inboxKey}` };
    const asAgent = { authorization: `Bearer ${forumKey}` };
    const mix: ((client: number, sequence: number) => LoadRequest)[] = [
      () => ({ method: "GET", host: "inbox.example.com", path: "/v0/inboxes", headers: asInbox, expected: 200 }),
      (client, sequence) => ({
        method: "POST",
        host: "inbox.example.com",
        path: "/v0/inboxes",
        headers: asInbox,
        body: { client_id: `load-${runId}-${client}-${sequence}` },
        expected: 200,
      }),
      () => ({ method: "GET", host: "forum.example.com", path: "/api/v1/posts", headers: asAgent, expected: 200 }),
      (client, sequence) => ({
        method: "POST",
        host: "forum.example.com",
        path: "/api/v1/posts",
        headers: { ...asAgent, "idempotency-key": `load-${runId}-${client}-${sequence}` },
        body: { title: `Load ${client}.${sequence}`, content: "Posted during a rolling upgrade." },
        expected: 201,
      }),
    ];
    const load = startSteadyLoad({
      port: nginx?.ports[0] ?? 0,
      ca: await readFile(join(scratch, "trusted.pem")),
      clients: 4,
      pauseMs: 20,
      maxRequests: 20_000,
      maxMs: 150_000,
      next: (client, sequence) => mix[(client + sequence) % mix.length]?.(client, sequence) as LoadRequest,
    });
    /** The requests of the load an instance's process has logged: all of them, or those after `marker`. */
    const served = (instance: Instance | undefined, marker = "") => {
      const log = instance?.log() ?? "";
      const from = marker === "" ? 0 : log.indexOf(marker);
      const after = from < 0 ? "" : log.slice(from);
      return (after.match(/"msg":"request".*"path":"\/(v0\/inboxes|api\/v1\/posts)"/g) ?? []).length;
    };
    const drains: { instance: number; signalledAt: number; exitedAt: number; servedDraining: number }[] = [];

    try {
      // The new version's install, with both instances running the old one.
      await runScript(lines.slice(0, restarts[0]?.index).join("\n"), { timeoutMs: 240_000 });
      for (const [position, { index, instance }] of restarts.entries()) {
        const running = instances.get(instance);
        // The instance takes its share of the load before it is restarted.
        await expect.poll(() => served(running), { timeout: 20_000 }).toBeGreaterThan(0);
        // `systemctl restart`: SIGTERM, wait for the process to exit, then the unit's ExecStart again.
        const signalledAt = performance.now();
        await running?.stop();
        drains.push({
          instance,
          signalledAt,
          exitedAt: performance.now(),
          servedDraining: served(running, '"msg":"draining'),
        });
        await startUnitInstance(instance);
        // The guide's lines after the restart, up to the next one: wait for the instance, then for nginx to use it.
        const until = restarts[position + 1]?.index ?? lines.length;
        const answer = await runScript(lines.slice(index + 1, until).join("\n"));
        expect(answer).toBe('{"status":"ready"}');
        // The new process takes its share of the load.
        await expect.poll(() => served(instances.get(instance)), { timeout: 20_000 }).toBeGreaterThan(0);
      }
    } finally {
      await load.stop();
    }

    const { succeededAtMs, failures } = load.tally;
    await annotate(
      `${succeededAtMs.length + failures.length} requests through nginx, ${failures.length} failed; answered during ` +
        `the drains: ${drains.map((drain) => succeededAtMs.filter((at) => at > drain.signalledAt && at < drain.exitedAt).length).join(" and ")}`,
    );
    // The load ran through the whole upgrade: it was stopped, not out of requests or time.
    expect(load.exhausted()).toBe(false);
    expect({ failures: load.tally.failures.length, first: load.tally.failures.slice(0, 5) }).toEqual({
      failures: 0,
      first: [],
    });
    for (const drain of drains) {
      // Requests were answered while the instance drained, some by the draining instance itself.
      const answeredDuring = load.tally.succeededAtMs.filter((at) => at > drain.signalledAt && at < drain.exitedAt);
      expect({
        instance: drain.instance,
        answered: answeredDuring.length > 0,
        served: drain.servedDraining > 0,
      }).toEqual({ instance: drain.instance, answered: true, served: true });
    }
    expect(load.tally.succeededAtMs.length).toBeGreaterThan(100);
  }, 180_000);

  it("backup.sh dumps the database while the instances run, and restores it into a new one", async () => {
    const dumpDir = await mkdtemp(join(scratch, "backup-"));
    await runScript(await example("backup.sh"), { cwd: dumpDir });
    // A server on the restored database knows the pod's key and its inbox.
    const port = await freePort();
    const restored = startInstalled(["--inbox-port", String(port), "--forum-port", "0", "--no-smtp"], {
      PATH: shellEnv().PATH,
      PIGEONHOLE_DATABASE_URL: databaseUrl.replace(/\/pigeonhole$/, "/pigeonhole_restored"),
    });
    try {
      const { stdout } = await run("curl", [
        "-fsS",
        "--retry",
        "30",
        "--retry-connrefused",
        "--retry-delay",
        "1",
        "-H",
        `Authorization: Bearer ${inboxKey}`,
        `http://127.0.0.1:${port}/v0/inboxes/support%40example.com`,
      ]);
      expect(JSON.parse(stdout).inbox_id).toBe("support@example.com");
    } finally {
      await restored.stop();
    }
  }, 60_000);

  describe("one instance on SQLite", () => {
    let single: Instance | undefined;
    let inboxPort: number;
    const dataDir = () => join(scratch, "var/lib/pigeonhole");
    afterAll(() => single?.stop());

    /** The guide's start line, as arguments: binding 127.0.0.1 rather than every interface, on ports of its own. */
    async function startLine(host: string): Promise<string[]> {
      const line = (await example("one-instance.sh")).trimEnd().split("\n").at(-1) ?? "";
      expect(line).toContain("pigeonhole-server --host 0.0.0.0 --no-dev-keys");
      const [, ...args] = onThisMachine(line).replace("--host 0.0.0.0", `--host ${host}`).split(/\s+/);
      inboxPort = await freePort();
      return [...args, "--inbox-port", String(inboxPort), "--forum-port", "0", "--smtp-port", "0"];
    }

    /** The status an Inbox API path answers with this key, once the server listens. */
    async function status(path: string, key: string): Promise<string> {
      const { stdout } = await run("curl", [
        "-sS",
        "--retry",
        "30",
        "--retry-connrefused",
        "--retry-delay",
        "1",
        "-o",
        "/dev/null",
        "-w",
        "%{http_code}",
        "-H",
        `Authorization: Bearer ${key}`,
        `http://127.0.0.1:${inboxPort}${path}`,
      ]);
      return stdout;
    }

    it("one-instance.sh starts without development keys or test control, and the key it made works", async () => {
      const script = (await example("one-instance.sh")).trimEnd().split("\n");
      const key = (await runScript(script.slice(0, -1).join("\n"))).trim();
      expect(key).toMatch(/^ph_inbox_[A-Za-z0-9]{32}$/);
      single = startInstalled(await startLine("127.0.0.1"), { PATH: shellEnv().PATH }, dataDir());
      expect(await status("/v0/inboxes", key)).toBe("200");
      expect(await status("/v0/inboxes", "pigeonhole-inbox-dev")).toBe("401");
      // Test control is off: its paths answer as unknown ones do, even to a valid key.
      expect(await status("/_test/clock", key)).toBe("404");
    }, 60_000);

    it("sqlite-backup.sh writes a consistent copy while the server runs", async () => {
      await runScript(await example("sqlite-backup.sh"));
      const { stdout } = await run("sqlite3", [join(dataDir(), "pigeonhole-backup.db"), "PRAGMA integrity_check"]);
      expect(stdout.trim()).toBe("ok");
    });

    it("without --no-dev-keys, the same command on another interface is refused with what to add", async () => {
      // 192.0.2.1 is a documentation address no machine holds: nothing is ever bound, refused or not.
      const args = (await startLine("192.0.2.1")).filter((arg) => arg !== "--no-dev-keys");
      const cwd = await mkdtemp(join(scratch, "refused-"));
      const refused = startInstalled(args, { PATH: shellEnv().PATH }, cwd);
      const [code] = (await once(refused.child, "exit")) as [number | null];
      expect(code).not.toBe(0);
      expect(refused.log()).toContain("--no-dev-keys");
    }, 30_000);
  });
});
