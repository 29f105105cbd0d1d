import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync } from "node:fs";
import { chmod, mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { freePort, isRunning } from "@pigeonhole/test-processes";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findPostgresBinDir } from "../src/binaries.ts";
import { launchPostgres } from "../src/cluster.ts";
import { startPostgres } from "../src/index.ts";
import { clusterAccount, runProgram } from "../src/run-program.ts";
import { serverProcesses, waitForExit } from "./processes.ts";

async function query<T extends pg.QueryResultRow>(config: string | pg.ClientConfig, sql: string): Promise<T[]> {
  const client = new pg.Client(config);
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

/** `pg_ctl status`: 0 while the server runs, 3 when it does not, 4 without a data folder. */
async function pgCtlStatus(dataDir: string): Promise<number> {
  const pgCtl = join(findPostgresBinDir(["pg_ctl"]), "pg_ctl");
  try {
    await runProgram(pgCtl, ["status", `--pgdata=${dataDir}`], { as: await clusterAccount(), cwd: "/" });
    return 0;
  } catch (error) {
    const cause = (error as Error).cause as { code?: number };
    return cause.code ?? -1;
  }
}

function listen(port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen({ host: "127.0.0.1", port, exclusive: true }, () => resolve(server));
  });
}

// Each test makes its clusters in a folder of its own, so that what is left behind can be counted.
let parent: string;
beforeAll(async () => {
  parent = await mkdtemp(join(tmpdir(), "postgres-testing-"));
  // As root the cluster runs as `postgres`, which must be able to enter the folder.
  await chmod(parent, 0o755);
});
afterAll(async () => {
  await rm(parent, { recursive: true, force: true });
});

describe("startPostgres", () => {
  it("runs a real server on 127.0.0.1 and a socket, makes separate databases, and stop leaves nothing", async () => {
    const cluster = await startPostgres({ parentDir: parent, settings: { work_mem: "8MB" } });
    const processes = serverProcesses(cluster.dataDir);
    expect(cluster.url).toBe(`postgres://postgres@127.0.0.1:${cluster.port}/postgres`);
    expect(cluster.socketDir.startsWith(parent)).toBe(true);
    expect(await pgCtlStatus(cluster.dataDir)).toBe(0);

    const [settings] = await query<Record<string, string>>(
      cluster.url,
      `select current_setting('server_version_num') as version, current_setting('listen_addresses') as listen,
              current_setting('fsync') as fsync, current_setting('work_mem') as work_mem,
              current_setting('TimeZone') as timezone, current_setting('lc_collate') as collate,
              current_setting('server_encoding') as encoding`,
    );
    expect(Number(settings?.version)).toBeGreaterThanOrEqual(150000);
    expect(settings).toMatchObject({
      listen: "127.0.0.1",
      fsync: "off",
      work_mem: "8MB",
      timezone: "UTC",
      collate: "C",
      encoding: "UTF8",
    });

    const alpha = await cluster.createDatabase("alpha");
    const other = await cluster.createDatabase();
    expect(alpha).toBe(`postgres://postgres@127.0.0.1:${cluster.port}/alpha`);
    expect(other).toMatch(new RegExp(`^postgres://postgres@127\\.0\\.0\\.1:${cluster.port}/test_[0-9a-f]{12}$`));
    await query(alpha, "create table marker (id int primary key); insert into marker values (1), (2)");
    expect(await query(other, "select to_regclass('marker') as found")).toEqual([{ found: null }]);
    // The same database through the Unix socket.
    const overSocket = { host: cluster.socketDir, port: cluster.port, user: "postgres", database: "alpha" };
    expect(await query(overSocket, "select count(*)::int as n from marker")).toEqual([{ n: 2 }]);
    await expect(cluster.createDatabase("alpha")).rejects.toThrow(/already exists/);
    await expect(cluster.createDatabase("Not-A-Name")).rejects.toThrow(/a-z, 0-9 and _/);

    await cluster.stop();
    expect(await waitForExit(processes)).toEqual([]);
    expect(existsSync(cluster.socketDir)).toBe(false);
    expect(await pgCtlStatus(cluster.dataDir)).toBe(4);
    await expect(query(cluster.url, "select 1")).rejects.toThrow(/ECONNREFUSED/);
    await cluster.stop(); // a second stop is harmless
  });

  it("pauses a cluster, keeping its data, and resumes it on the same port", async () => {
    const cluster = await startPostgres({ parentDir: parent });
    try {
      const url = await cluster.createDatabase("kept");
      await query(url, "create table marker (n int); insert into marker values (7)");
      const processes = serverProcesses(cluster.dataDir);
      await cluster.pause();
      expect(await waitForExit(processes)).toEqual([]);
      expect(await pgCtlStatus(cluster.dataDir)).toBe(3);
      await expect(query(url, "select 1")).rejects.toThrow(/ECONNREFUSED/);
      await cluster.pause(); // a second pause is harmless
      await cluster.resume();
      expect(await query(url, "select n from marker")).toEqual([{ n: 7 }]);
      await cluster.resume(); // and so is resuming a running cluster
    } finally {
      await cluster.stop();
    }
    expect(await readdir(parent)).toEqual([]);
  });

  it("stops and cleans up a cluster whose server was killed", async () => {
    const cluster = await startPostgres({ parentDir: parent });
    const processes = serverProcesses(cluster.dataDir);
    process.kill(processes[0] as number, "SIGKILL");
    await cluster.stop();
    expect(await waitForExit(processes)).toEqual([]);
    expect(await readdir(parent)).toEqual([]);
  });

  it("tries another port when the one it picked is taken before the server binds it", async () => {
    const taken = await listen(await freePort());
    const takenPort = (taken.address() as { port: number }).port;
    const picked: number[] = [];
    const ports = [takenPort, await freePort()];
    try {
      const nextPort = async () => {
        const port = ports[picked.length] ?? (await freePort());
        picked.push(port);
        return port;
      };
      const cluster = await launchPostgres({ parentDir: parent }, nextPort, 3);
      expect(picked).toEqual(ports);
      expect(cluster.port).toBe(ports[1]);
      expect(await query(cluster.url, "select 1 as one")).toEqual([{ one: 1 }]);
      await cluster.stop();

      // A port the caller chose is not traded for another: the start fails, says why, and leaves nothing.
      await expect(startPostgres({ parentDir: parent, port: takenPort })).rejects.toThrow(
        new RegExp(`did not start on 127\\.0\\.0\\.1:${takenPort}[\\s\\S]*Address already in use`),
      );
      expect(await readdir(parent)).toEqual([]);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });
});

describe("findPostgresBinDir", () => {
  it("prefers POSTGRES_BIN_DIR, then Debian's newest major, then PATH", async () => {
    const root = join(parent, "layout");
    const programs = ["initdb", "pg_ctl"];
    const makeBin = async (dir: string, names: readonly string[]) => {
      await mkdir(dir, { recursive: true });
      await Promise.all(names.map((name) => writeFile(join(dir, name), "", { mode: 0o755 })));
    };
    await makeBin(join(root, "debian/9/bin"), programs);
    await makeBin(join(root, "debian/16/bin"), programs);
    await makeBin(join(root, "debian/17/bin"), ["pg_ctl"]); // incomplete: skipped
    await makeBin(join(root, "custom"), programs);
    await makeBin(join(root, "path"), programs);
    const debianRoot = join(root, "debian");
    const path = [join(root, "path")];

    expect(findPostgresBinDir(programs, { binDir: join(root, "custom"), debianRoot, path })).toBe(join(root, "custom"));
    expect(findPostgresBinDir(programs, { debianRoot, path })).toBe(join(debianRoot, "16/bin"));
    expect(findPostgresBinDir(programs, { debianRoot: join(root, "none"), path })).toBe(join(root, "path"));
    await rm(root, { recursive: true });
  });

  it("names the set-up script when the programs are missing", () => {
    const nowhere = join(parent, "nowhere");
    expect(() => findPostgresBinDir(["initdb"], { binDir: nowhere, debianRoot: nowhere, path: [nowhere] })).toThrow(
      /initdb were not found[\s\S]*bash scripts\/ensure-test-tools\.sh/,
    );
  });
});

/**
 * A Node program that starts a cluster in `parentDir`, prints the folder and the server's pid, then runs `rest`. Node
 * runs the TypeScript sources as they are.
 */
function clusterProgram(parentDir: string, rest: string): string {
  return `
    const { startPostgres } = await import(${JSON.stringify(new URL("../src/index.ts", import.meta.url).href)});
    const { readFileSync } = await import("node:fs");
    const cluster = await startPostgres({ parentDir: ${JSON.stringify(parentDir)} });
    const pid = readFileSync(cluster.dataDir + "/postmaster.pid", "utf8").split("\\n")[0];
    process.stdout.write(cluster.socketDir + " " + pid + "\\n");
    ${rest}
  `;
}

describe("a process that ends without stopping its cluster", () => {
  it("stops it on the way out when it exits", async () => {
    const output = await runProgram(process.execPath, ["--input-type=module", "--eval", clusterProgram(parent, "")]);
    const [dir, pid] = output.trim().split(" ");
    expect(Number(pid)).toBeGreaterThan(0);
    expect(await waitForExit([Number(pid)])).toEqual([]);
    expect(existsSync(dir as string)).toBe(false);
  });

  it("has its cluster stopped by the next start when it was killed outright", async () => {
    const child = spawn(
      process.execPath,
      ["--input-type=module", "--eval", clusterProgram(parent, "setInterval(() => {}, 1000);")],
      {
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    const [line] = (await once(createInterface({ input: child.stdout }), "line")) as [string];
    const [dir, pid] = line.split(" ");
    child.kill("SIGKILL");
    await once(child, "exit");
    expect(isRunning(Number(pid))).toBe(true); // no exit handler ran: the server is an orphan

    const next = await startPostgres({ parentDir: parent });
    expect(await waitForExit([Number(pid)])).toEqual([]);
    expect(existsSync(dir as string)).toBe(false);
    await next.stop();
    expect(await readdir(parent)).toEqual([]);
  });
});
