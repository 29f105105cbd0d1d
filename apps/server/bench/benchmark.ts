import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { type Relay, startRelay } from "@pigeonhole/mail-testing";
import { TEST_KEYS } from "../test/support/cli-process.ts";
import { type BenchPostgres, openBenchPostgres, settlePostgres } from "./bench-postgres.ts";
import {
  type Backend,
  type BenchSettings,
  BenchSettingsError,
  readBenchSettings,
  selectsPart,
  unmatchedFilters,
} from "./bench-settings.ts";
import { type CeilingProcess, startCeiling } from "./ceiling.ts";
import { Cleanup } from "./cleanup.ts";
import { startCpuWindow } from "./cpu-window.ts";
import { type FanOutResult, runFanOut } from "./fan-out.ts";
import { renderFanOut } from "./fan-out-report.ts";
import { runLoad } from "./load.ts";
import { type MailMeasurement, renderMailTable } from "./mail-report.ts";
import { measureSearch, renderSearchRow, SEARCH_SIZES, SEARCH_TABLE_HEADER } from "./message-search.ts";
import { canReadProcessCpu } from "./process-cpu.ts";
import { runRelaySend } from "./relay-send.ts";
import { goalVerdicts, type MeasuredScenario, renderTable, renderVerdicts } from "./report.ts";
import {
  ATTACHMENT_SIZES,
  benchScenarios,
  type Scenario,
  SEND_MESSAGE_SCENARIO,
  type SeededAttachment,
  type SeededData,
  SQLITE_GOALS,
} from "./scenarios.ts";
import { createInbox, seedAttachments, seedInboxes, seedPosts, seedVoters, voterKey } from "./seed.ts";
import { type ServerInstances, startServerInstances } from "./server-instances.ts";
import { runSmtpReceive } from "./smtp-receive.ts";
import { runStreamingLoad } from "./streaming-load.ts";
import { runWebhookDelivery, type WebhookDeliveryResult } from "./webhook-delivery.ts";
import { renderWebhookDelivery } from "./webhook-delivery-report.ts";

const SEEDED_INBOXES = 100;
// Prime, so that agents and posts pair up differently every round: each post gets votes from many agents.
const VOTERS = 499;

/** The parts of a configuration's run besides its scenarios, by the names `BENCH_SCENARIOS` selects them with. */
const FAN_OUT_PART = "event fan-out";
const MAIL_PART = "mail";
const MESSAGE_SEARCH_PART = "message search";
const WEBHOOK_PART = "webhook delivery";

/** The scenarios `BENCH_SCENARIOS` selects, all of them when it is unset. */
const selectedScenarios = (settings: BenchSettings, seeded: SeededData) =>
  benchScenarios(TEST_KEYS, seeded).filter((scenario) => selectsPart(settings, scenario.name));

/**
 * Refuses, before anything is seeded, a `BENCH_SCENARIOS` piece that no name holds. The names depend only on the
 * counts seeded, so they come from a plan of the data with those counts.
 */
function checkScenarioFilters(settings: BenchSettings): void {
  const planned: SeededData = {
    posts: settings.posts,
    inboxes: SEEDED_INBOXES,
    post: "",
    inbox: "",
    postIds: [],
    voterKeys: Array.from({ length: VOTERS }, (_, i) => voterKey(i)),
    attachments: ATTACHMENT_SIZES.map((size) => ({ size, path: "" })),
  };
  const names = [
    ...benchScenarios(TEST_KEYS, planned).map((scenario) => scenario.name),
    FAN_OUT_PART,
    MAIL_PART,
    MESSAGE_SEARCH_PART,
    WEBHOOK_PART,
  ];
  const unmatched = unmatchedFilters(settings, names);
  if (unmatched.length > 0) {
    throw new BenchSettingsError(
      `BENCH_SCENARIOS: no scenario's name holds ${unmatched.map((filter) => `'${filter}'`).join(", ")}; ` +
        `the names are ${names.map((name) => `'${name}'`).join(", ")}.`,
    );
  }
}

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

/** What one configuration measured: the scenarios, and the event fan-out unless it was left out. */
interface ConfigurationResult {
  rows: MeasuredScenario[];
  fanOut: FanOutResult | null;
}

/** The scenario measured on `servers`, right after the ceiling on as many processes. */
async function measureScenario(
  settings: BenchSettings,
  scenario: Scenario,
  servers: ServerInstances,
  ceilings: readonly CeilingProcess[],
  databasePid: number | undefined,
): Promise<MeasuredScenario> {
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
  const window = startCpuWindow({ servers: servers.instances.map((instance) => instance.pid), database: databasePid });
  const measured = await load(targets, scenario.request, settings.connections, settings.seconds);
  return {
    name: scenario.name,
    kind: scenario.kind,
    load: measured,
    cpu: window(),
    ceiling: { name: baseline.name, load: ceilingLoad, cpu: ceilingCpu },
  };
}

/** The event fan-out with the subscribers on the first instance and the sends through the last. */
async function measureFanOut(
  settings: BenchSettings,
  servers: ServerInstances,
  seeded: SeededData,
  databasePid: number | undefined,
): Promise<FanOutResult> {
  const [first] = servers.instances;
  const last = servers.instances.at(-1);
  if (!first || !last) {
    throw new Error("No server instance to measure the event fan-out on.");
  }
  return runFanOut(
    {
      subscribeUrl: first.inboxUrl,
      sendUrl: last.inboxUrl,
      inboxKey: TEST_KEYS.inbox,
      inbox: seeded.inbox,
      serverPids: servers.instances.map((instance) => instance.pid),
      databasePid,
    },
    settings.fanOut,
  );
}

/**
 * Runs every selected scenario on `count` instances, each right after the ceiling on as many processes, then the
 * event fan-out unless it is left out.
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
    const rows: MeasuredScenario[] = [];
    for (const scenario of selectedScenarios(settings, seeded)) {
      rows.push(await measureScenario(settings, scenario, servers, ceilings, database.databasePid));
    }
    const fanOut = selectsPart(settings, FAN_OUT_PART)
      ? await measureFanOut(settings, servers, seeded, database.databasePid)
      : null;
    return { rows, fanOut };
  } finally {
    await cleanup.run();
  }
}

/**
 * Webhook deliveries on `count` instances started for it (private webhook addresses allowed, for the receiver on
 * 127.0.0.1), the sends through the last one; any instance may deliver.
 */
async function measureWebhookDelivery(
  settings: BenchSettings,
  database: PreparedDatabase,
  count: number,
  parentCleanup: Cleanup,
): Promise<WebhookDeliveryResult> {
  const cleanup = parentCleanup.nested();
  try {
    const servers = await startServerInstances(count, database.serverArgs, { extraArgs: ["--allow-private-webhooks"] });
    cleanup.add(() => servers.stop());
    const last = servers.instances.at(-1);
    if (!last) {
      throw new Error("No server instance to send through.");
    }
    return await runWebhookDelivery({ sendUrl: last.inboxUrl, inboxKey: TEST_KEYS.inbox }, settings.webhook);
  } finally {
    await cleanup.run();
  }
}

function reportWebhookDelivery(settings: BenchSettings, count: number, result: WebhookDeliveryResult): void {
  out(
    `  Webhook delivery: ${result.messages} messages from one inbox to another, one every ` +
      `${settings.webhook.intervalMs} ms through instance ${count}, to a receiver on 127.0.0.1`,
  );
  for (const line of renderWebhookDelivery(result)) {
    out(`  ${line}`);
  }
}

/** What the mail scenarios of one configuration measured, and why any of them did not run. */
interface MailResult {
  rows: MailMeasurement[];
  skipped: string[];
}

/** A new inbox for one mail scenario, so that its check sees only that scenario's messages. */
const mailInbox = (scenario: string) => `${scenario}-${randomBytes(4).toString("hex")}`;

/**
 * Receives messages over SMTP on `count` instances started for it (SMTP on a free port each, one connection per
 * sender allowed from 127.0.0.1).
 */
async function measureSmtpReceive(
  settings: BenchSettings,
  database: PreparedDatabase,
  count: number,
  parentCleanup: Cleanup,
): Promise<MailMeasurement> {
  const cleanup = parentCleanup.nested();
  try {
    const servers = await startServerInstances(count, database.serverArgs, {
      smtp: true,
      extraArgs: ["--smtp-connections-per-address", String(settings.connections)],
    });
    cleanup.add(() => servers.stop());
    const [first] = servers.instances;
    if (!first) {
      throw new Error("No server instance to receive mail on.");
    }
    const inbox = await createInbox(first.inboxUrl, TEST_KEYS.inbox, mailInbox("smtp-bench"));
    return await runSmtpReceive(
      {
        smtp: servers.instances.flatMap((instance) => (instance.smtp ? [instance.smtp] : [])),
        inbox: { inboxUrl: first.inboxUrl, inboxKey: TEST_KEYS.inbox, inbox },
        serverPids: servers.instances.map((instance) => instance.pid),
        databasePid: database.databasePid,
      },
      { messages: settings.mailMessages, connections: settings.connections },
    );
  } finally {
    await cleanup.run();
  }
}

/** Sends through the API of `count` instances started with `relay` as their relay, on to an outside address. */
async function measureRelaySend(
  settings: BenchSettings,
  database: PreparedDatabase,
  count: number,
  relay: Relay,
  parentCleanup: Cleanup,
): Promise<MailMeasurement> {
  const cleanup = parentCleanup.nested();
  try {
    const servers = await startServerInstances(count, database.serverArgs, { extraArgs: ["--smtp-relay", relay.url] });
    cleanup.add(() => servers.stop());
    const [first] = servers.instances;
    if (!first) {
      throw new Error("No server instance to send through.");
    }
    const inbox = await createInbox(first.inboxUrl, TEST_KEYS.inbox, mailInbox("relay-bench"));
    return await runRelaySend(
      {
        senders: servers.instances.map((instance) => ({
          inboxUrl: instance.inboxUrl,
          inboxKey: TEST_KEYS.inbox,
          inbox,
        })),
        relay,
        serverPids: servers.instances.map((instance) => instance.pid),
        databasePid: database.databasePid,
      },
      { messages: settings.mailMessages, connections: settings.connections },
    );
  } finally {
    await cleanup.run();
  }
}

/** The mail scenarios on `count` instances; the relay one only where Postfix can start (as root, with Debian's). */
async function measureMail(
  settings: BenchSettings,
  database: PreparedDatabase,
  count: number,
  parentCleanup: Cleanup,
): Promise<MailResult> {
  const rows = [await measureSmtpReceive(settings, database, count, parentCleanup)];
  const cleanup = parentCleanup.nested();
  try {
    let relay: Relay;
    try {
      relay = await startRelay();
    } catch (error) {
      const reason = (error instanceof Error ? error.message : String(error)).split("\n")[0];
      return {
        rows,
        skipped: [
          `relay scenario skipped: Postfix could not start (${reason}); it runs as root, with the packages ` +
            "scripts/ensure-test-tools.sh installs.",
        ],
      };
    }
    cleanup.add(() => relay.stop());
    rows.push(await measureRelaySend(settings, database, count, relay, cleanup));
    return { rows, skipped: [] };
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

function reportFanOut(settings: BenchSettings, count: number, fanOut: FanOutResult): void {
  out(
    `  Event fan-out: message.sent to WebSocket subscribers on instance 1, sends through instance ${count}, ` +
      `one every ${settings.fanOut.intervalMs} ms`,
  );
  for (const line of renderFanOut(fanOut)) {
    out(`  ${line}`);
  }
}

function reportMail(rows: readonly MeasuredScenario[], mail: MailResult, settings: BenchSettings, count: number) {
  out(
    `  Mail: ${settings.mailMessages} messages per scenario over ${settings.connections} connections, on ` +
      `${count === 1 ? "an instance" : `${count} instances`} started for each`,
  );
  for (const line of renderMailTable(
    rows.find((row) => row.name === SEND_MESSAGE_SCENARIO),
    mail.rows,
  )) {
    out(`  ${line}`);
  }
  for (const line of mail.skipped) {
    out(`  ${line}`);
  }
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
    // Only the parts outside the table (fan-out, mail, webhooks) may be selected: no empty table then.
    for (const line of rows.length > 0 ? renderTable(rows) : []) {
      out(`  ${line}`);
    }
    if (backend === "sqlite" && rows.length > 0) {
      out(`  Goals: reads at least ${SQLITE_GOALS.read}x of the ceiling, writes at least ${SQLITE_GOALS.write}x.`);
      for (const line of renderVerdicts(goalVerdicts(rows, SQLITE_GOALS))) {
        out(`  ${line}`);
      }
    }
    if (fanOut) {
      reportFanOut(settings, count, fanOut);
    }
    if (selectsPart(settings, MAIL_PART)) {
      reportMail(rows, await measureMail(settings, database, count, cleanup), settings, count);
    }
    if (selectsPart(settings, WEBHOOK_PART)) {
      reportWebhookDelivery(settings, count, await measureWebhookDelivery(settings, database, count, cleanup));
    }
    out();
  }
  if (selectsPart(settings, MESSAGE_SEARCH_PART)) {
    await reportMessageSearch(database, inbox, cleanup);
  }
}

/** Message search at each size of one inbox, with getting one message as the baseline (see message-search.ts). */
async function reportMessageSearch(database: PreparedDatabase, podOfInbox: string, cleanup: Cleanup): Promise<void> {
  out(
    `${database.title}, 1 instance: search over one inbox of ${SEARCH_SIZES.map((size) => size.toLocaleString("en-US")).join(" and ")} ` +
      "messages (stored through the database; 6-word subjects, 60 words of text, 30 of html, from 5,000 words), " +
      "requests one after another on one connection",
  );
  out(`  ${SEARCH_TABLE_HEADER}`);
  await measureSearch(database, TEST_KEYS.inbox, podOfInbox, cleanup, (row) => out(`  ${renderSearchRow(row)}`));
  out();
}

/** Runs the benchmark as `BENCH_*` variables in `env` set it, printing a table per database and instance count. */
export async function runBenchmark(env: Readonly<Record<string, string | undefined>>): Promise<void> {
  const settings = readBenchSettings(env);
  checkScenarioFilters(settings);
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
      "with the measurement). µs CPU/req: CPU microseconds of the server instances together per request, which " +
      "does not depend on how much CPU the load generator took. req/CPU s: requests per CPU second of the servers " +
      "and the database together. " +
      "MB/s: answers' bytes (headers and bodies). Downloads: Node's HTTP client as the load generator (autocannon " +
      "reads megabyte bodies slower than the server sends them), against a ceiling serving the same bytes from memory.",
  );
  out(
    `Event fan-out: ${settings.fanOut.subscribers} WebSocket subscribers on one API key hear ` +
      `${settings.fanOut.messages} messages sent one after another; latency from the start of a send's request to ` +
      "each subscriber's receipt of its event; events/s delivered from the first send to the last receipt.",
  );
  out(
    `Mail: ${settings.mailMessages} messages per scenario, each with its own inbox. SMTP receive: Nodemailer's ` +
      "pooled SMTP client into the servers' SMTP ports, one message at a time per connection; msg/s accepted (250), " +
      "latency of each SMTP transaction, then every accepted message looked up through the API. Relayed: sends " +
      "through the API to an outside address with a Postfix relay on 127.0.0.1 (--smtp-relay); msg/s from the " +
      "first send to the relay's last delivery, latency from a send's start to the relay's acceptance as the " +
      "server recorded it, then every message looked for once among the relay's deliveries. x HTTP send: against " +
      "the send message scenario of the same configuration (its req/s over autocannon's connections). µs CPU/msg: " +
      "the server instances' CPU per message (per request for the HTTP send).",
  );
  out(
    `Webhook delivery: ${settings.webhook.messages} messages sent one after another between two inboxes of one ` +
      "pod, whose webhook takes message.sent and message.received, on instances started for it; latency from a " +
      "send's 200 to its event's arrival at a receiver on 127.0.0.1 (Node's HTTP server), against the baseline of " +
      "the same run: the send requests themselves, from their start to their 200 (x send, percentile by percentile).",
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
