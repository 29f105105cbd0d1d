import { type ChildProcess, execFile, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { type Nginx, startNginx } from "@pigeonhole/nginx-testing";
import { type PostgresCluster, startPostgres } from "@pigeonhole/postgres-testing";
import { freePort } from "@pigeonhole/test-processes";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { SITE_ROOT } from "./built-site.ts";

// The deployment guide's commands, run on this machine: its PostgreSQL role and database in a throw-away cluster, its
// template unit's two instances, its nginx configuration in a throw-away nginx in front of them (TLS, the WebSocket
// stream, the access log), a rolling restart, a backup and its restore, and the one-instance SQLite setup.
//
// What changes the machine itself is not run: creating the `pigeonhole` user, installing into /opt, and systemd
// (`systemctl` starts the unit's ExecStart, which the test runs instead, with the EnvironmentFile's variables). Every
// other command runs as written, through `sh`, with these substitutions: the guide's paths (/opt, /etc, /var) are
// folders of a scratch directory, `sudo -u <user>` is dropped (the cluster's superuser is `postgres`, named by
// PGUSER), the database host is the cluster's, and each fixed port is a free one.

const run = promisify(execFile);

/** The folder of the server package the docs are built against, as `npm install @pigeonhole/server` leaves it. */
const SERVER_PACKAGE = dirname(fileURLToPath(import.meta.resolve("@pigeonhole/server/package.json")));

/** The bin of that package. */
const BIN = join(SERVER_PACKAGE, "bin/pigeonhole-server.js");

/** The ports the guide names: each instance's Inbox API, Forum API and SMTP port. */
const GUIDE_PORTS = [4011, 4012, 4021, 4022, 2521, 2522] as const;

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

function startInstance(args: readonly string[], env: NodeJS.ProcessEnv, cwd?: string): Instance {
  const child = spawn(process.execPath, [BIN, ...args], { cwd, env, stdio: ["ignore", "ignore", "pipe"] });
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
        child.kill("SIGTERM"); // what `systemctl stop` sends
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
  /** The guide's fixed ports, each mapped to a free one. */
  const ports = new Map<number, number>();
  const instances = new Map<number, Instance>();
  let nginx: Nginx | undefined;
  let inboxKey: string;
  let forumKey: string;

  /** The guide's text as it runs on this machine. */
  function onThisMachine(text: string): string {
    let local = text
      .replaceAll(/sudo -u \w+ /g, "")
      .replaceAll("sudo install -d -o pigeonhole -g pigeonhole", "install -d")
      .replaceAll("/opt/pigeonhole", join(scratch, "opt/pigeonhole"))
      .replaceAll(/^sudo cp /gm, "cp ")
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

  /** The environment a reader's shell has, with Node 24 first on PATH (the bin's `#!/usr/bin/env node`). */
  const shellEnv = (): NodeJS.ProcessEnv => ({
    PATH: [dirname(process.execPath), process.env.PATH].join(delimiter),
    HOME: scratch,
    LC_ALL: "C",
    PGHOST: "127.0.0.1",
    PGPORT: String(cluster.port),
    PGUSER: "postgres",
  });

  /** Runs a script's lines that are not systemd's or npm's, as written but for the substitutions, and answers stdout. */
  async function runScript(script: string, options: { input?: string; cwd?: string } = {}): Promise<string> {
    const lines = onThisMachine(script)
      .split("\n")
      .filter((line) => !/^(sudo )?(systemctl|npm) /.test(line.replace(/^cd \S+ && /, "").replace(/^sudo /, "")));
    const child = spawn("sh", ["-ec", lines.join("\n")], {
      cwd: options.cwd ?? scratch,
      env: shellEnv(),
      // No controlling terminal: createuser then reads the password from standard input.
      detached: true,
      stdio: ["pipe", "pipe", "pipe"],
    });
    child.stdin.end(options.input ?? "");
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    // "close" rather than "exit": what it printed has been read.
    const [code] = (await once(child, "close")) as [number | null];
    clearTimeout(timer);
    if (code !== 0) {
      throw new Error(`sh exited with ${code}:\n${lines.join("\n")}\n${stderr}`);
    }
    return stdout;
  }

  /** The unit's ExecStart for one instance, split into arguments after the program. */
  async function execStart(instance: number): Promise<{ args: string[]; env: NodeJS.ProcessEnv }> {
    // The unit as installed: the package's copy, under /opt/pigeonhole.
    const unitFile = await readFile(
      join(scratch, "opt/pigeonhole/node_modules/@pigeonhole/server/deploy/pigeonhole@.service"),
      "utf8",
    );
    // systemd joins a line ending in a backslash to the next.
    const unit = onThisMachine(unitFile.replaceAll(/\\\n\s*/g, " ").replaceAll("%i", String(instance)));
    const command = /^ExecStart=(.*)$/m.exec(unit)?.[1] ?? "";
    const [program, ...args] = command.split(/\s+/);
    expect(program).toBe(join(scratch, "opt/pigeonhole/node_modules/.bin/pigeonhole-server"));
    const envFile = /^EnvironmentFile=(.*)$/m.exec(unit)?.[1] ?? "";
    const env = { PATH: shellEnv().PATH, ...environmentFile(await readFile(envFile, "utf8")) };
    return { args, env };
  }

  async function startUnitInstance(instance: number): Promise<void> {
    const { args, env } = await execStart(instance);
    instances.set(instance, startInstance(args, env));
  }

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
    cluster = await startPostgres();
    // What `npm install @pigeonhole/server` leaves in /opt/pigeonhole, and the folders the guide writes to.
    await mkdir(join(scratch, "opt/pigeonhole/node_modules/.bin"), { recursive: true });
    await symlink(BIN, join(scratch, "opt/pigeonhole/node_modules/.bin/pigeonhole-server"));
    await mkdir(join(scratch, "opt/pigeonhole/node_modules/@pigeonhole"));
    await symlink(SERVER_PACKAGE, join(scratch, "opt/pigeonhole/node_modules/@pigeonhole/server"));
    for (const folder of ["etc/pigeonhole", "etc/ssl", "etc/systemd/system", "var/log/nginx"]) {
      await mkdir(join(scratch, folder), { recursive: true });
    }
    await writeFile(join(scratch, "etc/pigeonhole/env"), onThisMachine(await shipped("pigeonhole.env")));
  });

  afterAll(async () => {
    for (const instance of instances.values()) {
      await instance.stop();
    }
    await nginx?.stop();
    await cluster?.stop();
    if (scratch) {
      await rm(scratch, { recursive: true, force: true });
    }
  });

  it("database.sh makes the role and the database it owns", async () => {
    await runScript(await example("database.sh"), { input: "secret\nsecret\n" });
    const { stdout } = await run(
      "psql",
      ["-tA", "-c", "SELECT pg_get_userbyid(datdba) FROM pg_database WHERE datname = 'pigeonhole'"],
      { env: shellEnv() },
    );
    expect(stdout.trim()).toBe("pigeonhole");
  });

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
    const frames: { type?: string; event_type?: string; message?: { subject?: string } }[] = [];
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

  it("upgrade.sh: restarting one instance at a time, every request through nginx is answered", async () => {
    const script = await example("upgrade.sh");
    // Each `systemctl restart` line stops one instance and starts it again; the guide's next line waits for it.
    for (const instance of [1, 2]) {
      await instances.get(instance)?.stop();
      for (let i = 0; i < 4; i++) {
        await throughNginx(["-H", `Authorization: Bearer ${inboxKey}`, publicUrl("inbox", "/v0/inboxes")]);
      }
      await startUnitInstance(instance);
      // The guide's lines after the restart: wait for the instance, then for nginx to send it requests again.
      const lines = script.split("\n");
      const waitLine = lines.findIndex((line) => line.includes(`:401${instance}/ready`));
      expect(await runScript(lines.slice(waitLine, waitLine + 2).join("\n"))).toBe('{"status":"ready"}');
    }
  }, 90_000);

  it("backup.sh dumps the database while the instances run, and restores it into a new one", async () => {
    const dumpDir = await mkdtemp(join(scratch, "backup-"));
    await runScript(await example("backup.sh"), { cwd: dumpDir });
    // A server on the restored database knows the pod's key and its inbox.
    const port = await freePort();
    const restored = startInstance(["--inbox-port", String(port), "--forum-port", "0", "--no-smtp"], {
      PATH: shellEnv().PATH,
      PIGEONHOLE_DATABASE_URL: `postgres://pigeonhole@127.0.0.1:${cluster.port}/pigeonhole_restored`,
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
        `http://127.0.0.1:${port}/v0/inboxes`,
      ]);
      expect(JSON.parse(stdout).inboxes.map((inbox: { inbox_id: string }) => inbox.inbox_id)).toEqual([
        "support@example.com",
      ]);
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
      single = startInstance(await startLine("127.0.0.1"), { PATH: shellEnv().PATH }, dataDir());
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
      const refused = startInstance(args, { PATH: shellEnv().PATH }, cwd);
      const [code] = (await once(refused.child, "exit")) as [number | null];
      expect(code).not.toBe(0);
      expect(refused.log()).toContain("--no-dev-keys");
    }, 30_000);
  });
});
