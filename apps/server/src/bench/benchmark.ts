import { mkdtempSync, rmSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { TEST_KEYS } from "../testing/cli-process.ts";
import { type BenchPostgres, openBenchPostgres, settlePostgres } from "./bench-postgres.ts";
import { type Backend, type BenchSettings, readBenchSettings } from "./bench-settings.ts";
import { type CeilingProcess, startCeiling } from "./ceiling.ts";
import { Cleanup } from "./cleanup.ts";
import { startCpuWindow } from "./cpu-window.ts";
import { type FanOutResult, runFanOut } from "./fan-out.ts";
import { renderFanOut } from "./fan-out-report.ts";
import { runLoad } from "./load.ts";
import { canReadProcessCpu } from "./process-cpu.ts";
import { goalVerdicts, type MeasuredScenario, renderTable, renderVerdicts } from "./report.ts";
import { ATTACHMENT_SIZES, benchScenarios, type SeededAttachment, type SeededData, SQLITE_GOALS } from "./scenarios.ts";
import { seedAttachments, seedInboxes, seedPosts, seedVoters, voterKey } from "./seed.ts";
import { type ServerInstances, startServerInstances } from "./server-instances.ts";
import { runStreamingLoad } from "./streaming-load.ts";

const SEEDED_INBOXES = 100;
// Prime, so that agents and posts pair up differently every round: each post gets votes from many agents.
const VOTERS = 499;

const out = (line = "") => process.stdout.write(`${line}\n`);

/** The database of one backend and how the server instances reach it. */
interface PreparedDatabase {
  title: string;
  /** A SQLite file or a PostgreSQL address. */
  location: string;
  serverArgs: string[];
  /** The database server's main process, when there is one on this machine. */
  databasePid?: number;
  instanceCounts: number[];
  /** Runs once everything is seeded, before the first measurement. */
  settle(): Promise<void>;
}

async function prepareSqlite(cleanup: Cleanup): Promise<PreparedDatabase> {
  const dir = mkdtempSync(join(tmpdir(), "pigeonhole-bench-"));
  cleanup.add(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, "bench.db");
  return {
    title: "SQLite (file, WAL)",
    location: file,
    serverArgs: ["--database", file],
    instanceCounts: [1],
    settle: async () => {},
  };
}

async function preparePostgres(settings: BenchSettings, cleanup: Cleanup): Promise<PreparedDatabase> {
  const postgres: BenchPostgres = await openBenchPostgres(settings.databaseUrl);
  cleanup.add(() => postgres.stop());
  const poolArgs = settings.poolSize === undefined ? [] : ["--database-pool-size", String(settings.poolSize)];
  return {
    title:
      settings.databaseUrl === undefined
        ? "PostgreSQL (throw-away cluster on 127.0.0.1, fsync on)"
        : "PostgreSQL (BENCH_DATABASE_URL)",
    serverArgs: ["--database", postgres.url, "--dev-keys", ...poolArgs],
    location: postgres.url,
    databasePid: postgres.postmasterPid,
    instanceCounts: settings.instances,
    settle: () => settlePostgres(postgres.url),
  };
}

async function startCeilings(count: number, cleanup: Cleanup): Promise<CeilingProcess[]> {
  const ceilings: CeilingProcess[] = [];
  cleanup.add(async () => {
    await Promise.all(ceilings.map((ceiling) => ceiling.stop()));
  });
  for (let i = 0; i < count; i++) {
    ceilings.push(await startCeiling());
  }
  return ceilings;
}

/** What one configuration measured: the scenarios, and the event fan-out. */
interface ConfigurationResult {
  rows: MeasuredScenario[];
  fanOut: FanOutResult;
}

/**
 * Runs every scenario on `count` instances, each right after the ceiling on as many processes, then the event
 * fan-out with the subscribers on the first instance and the sends through the last.
 */
async function measureConfiguration(
  settings: BenchSettings,
  database: PreparedDatabase,
  count: number,
  seeded: SeededData,
  parentCleanup: Cleanup,
): Promise<ConfigurationResult> {
  const cleanup = parentCleanup.nested();
  try {
    const servers: ServerInstances = await startServerInstances(count, database.serverArgs);
    cleanup.add(() => servers.stop());
    const ceilings = await startCeilings(count, cleanup);
    const pids = servers.instances.map((instance) => instance.pid);
    const rows: MeasuredScenario[] = [];
    for (const scenario of benchScenarios(TEST_KEYS, seeded)) {
      const baseline = scenario.ceiling ?? { name: "trivial handler", path: "/ceiling" };
      const load = scenario.streaming ? runStreamingLoad : runLoad;
      const ceilingWindow = startCpuWindow({ servers: ceilings.map((ceiling) => ceiling.pid) });
      const ceilingLoad = await load(
        ceilings.map((ceiling) => ceiling.url),
        { path: baseline.path },
        settings.connections,
        settings.seconds,
      );
      const ceilingCpu = ceilingWindow();
      const targets = servers.instances.map((instance) =>
        scenario.service === "inbox" ? instance.inboxUrl : instance.forumUrl,
      );
      const window = startCpuWindow({ servers: pids, database: database.databasePid });
      const measured = await load(targets, scenario.request, settings.connections, settings.seconds);
      rows.push({
        name: scenario.name,
        kind: scenario.kind,
        load: measured,
        cpu: window(),
        ceiling: { name: baseline.name, load: ceilingLoad, cpu: ceilingCpu },
      });
    }
    const [first] = servers.instances;
    const last = servers.instances.at(-1);
    if (!first || !last) {
      throw new Error("No server instance to measure the event fan-out on.");
    }
    const fanOut = await runFanOut(
      {
        subscribeUrl: first.inboxUrl,
        sendUrl: last.inboxUrl,
        inboxKey: TEST_KEYS.inbox,
        inbox: seeded.inbox,
        serverPids: pids,
        databasePid: database.databasePid,
      },
      settings.fanOut,
    );
    return { rows, fanOut };
  } finally {
    await cleanup.run();
  }
}

/**
 * Seeds the inboxes, and the attachments in the middle one, through a server instance of its own, before the
 * configurations are measured. The instance also creates the schema and registers the benchmark's keys.
 */
async function seedThroughServer(
  database: PreparedDatabase,
  parentCleanup: Cleanup,
): Promise<{ inbox: string; attachments: SeededAttachment[] }> {
  const cleanup = parentCleanup.nested();
  try {
    const servers = await startServerInstances(1, database.serverArgs);
    cleanup.add(() => servers.stop());
    const [instance] = servers.instances;
    if (!instance) {
      throw new Error("No server instance to seed through.");
    }
    const inboxes = await seedInboxes(instance.inboxUrl, TEST_KEYS.inbox, SEEDED_INBOXES);
    const inbox = middle(inboxes, "inboxes");
    const attachments = await seedAttachments(instance.inboxUrl, TEST_KEYS.inbox, inbox, ATTACHMENT_SIZES);
    return { inbox, attachments };
  } finally {
    await cleanup.run();
  }
}

function middle<T>(items: readonly T[], what: string): T {
  const item = items[Math.floor(items.length / 2)];
  if (item === undefined) {
    throw new Error(`No ${what} were seeded.`);
  }
  return item;
}

/** Seeds one database and measures each instance count on it; its database is removed at the end. */
async function benchmarkBackend(settings: BenchSettings, backend: Backend, parentCleanup: Cleanup): Promise<void> {
  const cleanup = parentCleanup.nested();
  try {
    await benchmarkDatabase(settings, backend, cleanup);
  } finally {
    await cleanup.run();
  }
}

async function benchmarkDatabase(settings: BenchSettings, backend: Backend, cleanup: Cleanup): Promise<void> {
  const started = performance.now();
  const database = backend === "sqlite" ? await prepareSqlite(cleanup) : await preparePostgres(settings, cleanup);
  const { inbox, attachments } = await seedThroughServer(database, cleanup);
  const postIds = await seedPosts(database.location, TEST_KEYS.forum, settings.posts);
  await seedVoters(database.location, VOTERS);
  await database.settle();
  const seededIn = ((performance.now() - started) / 1000).toFixed(1);
  out(`${database.title}: seeded ${settings.posts} posts and ${SEEDED_INBOXES} inboxes in ${seededIn} s.`);
  out();
  const seeded: SeededData = {
    posts: settings.posts,
    inboxes: SEEDED_INBOXES,
    post: middle(postIds, "posts"),
    inbox,
    postIds,
    voterKeys: Array.from({ length: VOTERS }, (_, i) => voterKey(i)),
    attachments,
  };
  for (const count of database.instanceCounts) {
    out(`${database.title}, ${count} ${count === 1 ? "instance" : "instances"}`);
    const { rows, fanOut } = await measureConfiguration(settings, database, count, seeded, cleanup);
    for (const line of renderTable(rows)) {
      out(`  ${line}`);
    }
    if (backend === "sqlite") {
      out(`  Goals: reads at least ${SQLITE_GOALS.read}x of the ceiling, writes at least ${SQLITE_GOALS.write}x.`);
      for (const line of renderVerdicts(goalVerdicts(rows, SQLITE_GOALS))) {
        out(`  ${line}`);
      }
    }
    out(
      `  Event fan-out: message.sent to WebSocket subscribers on instance 1, sends through instance ${count}, ` +
        `one every ${settings.fanOut.intervalMs} ms`,
    );
    for (const line of renderFanOut(fanOut)) {
      out(`  ${line}`);
    }
    out();
  }
}

/** Runs the benchmark as `BENCH_*` variables in `env` set it, printing a table per database and instance count. */
export async function runBenchmark(env: Readonly<Record<string, string | undefined>>): Promise<void> {
  const settings = readBenchSettings(env);
  if (!canReadProcessCpu()) {
    throw new Error("The benchmark reads processes' CPU time from /proc, which this system does not have.");
  }
  const cpuList = cpus();
  out(
    `Pigeonhole server benchmark: ${cpuList.length} CPUs (${cpuList[0]?.model ?? "unknown"}), Node ${process.version}`,
  );
  out(
    `Each scenario: ${settings.seconds} s, ${settings.connections} connections spread evenly over the instances, ` +
      "127.0.0.1; right before it, the ceiling (a trivial Hono handler, as many processes as instances).",
  );
  out(
    "CPU s: what each process used during the scenario (one figure per server instance; the database with all its " +
      "processes; the load generator, autocannon in this process; others: the rest of the machine, which competed " +
      "with the measurement). req/CPU s: requests per CPU second of the servers and the database together. " +
      "MB/s: answers' bytes (headers and bodies). Downloads: Node's HTTP client as the load generator (autocannon " +
      "reads megabyte bodies slower than the server sends them), against a ceiling serving the same bytes from memory.",
  );
  out(
    `Event fan-out: ${settings.fanOut.subscribers} WebSocket subscribers on one API key hear ` +
      `${settings.fanOut.messages} messages sent one after another; latency from the start of a send's request to ` +
      "each subscriber's receipt of its event; events/s delivered from the first send to the last receipt.",
  );
  out();
  const cleanup = new Cleanup();
  const interrupted = () => {
    cleanup.run().finally(() => process.exit(130));
  };
  process.once("SIGINT", interrupted);
  process.once("SIGTERM", interrupted);
  try {
    for (const backend of settings.backends) {
      await benchmarkBackend(settings, backend, cleanup);
    }
  } finally {
    process.off("SIGINT", interrupted);
    process.off("SIGTERM", interrupted);
    await cleanup.run();
  }
}
