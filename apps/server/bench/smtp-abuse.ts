// What one hostile SMTP sender costs the server, each against a fresh server started from the CLI in its own process
// (SQLite in a temporary directory): how long messages with a huge `From:` header keep the process busy (the time to
// the SMTP answer, and the slowest `GET /health` answered meanwhile), and the process's peak memory (VmHWM) while a
// client streams far more DATA than the size limit allows. Prints the figures; asserts nothing. Needs Linux.
// Usage: node bench/smtp-abuse.ts
// SMTP_ABUSE_HEADER_KB (150,200) sets the sizes of the `From:` header, SMTP_ABUSE_HEADER_PATTERN (a) what it repeats
// and SMTP_ABUSE_FOLD_WIDTH (none) the length of its folded lines; SMTP_ABUSE_DATA_MB (300) the DATA streamed (0: none).
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { get } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ON_FREE_PORTS, startCli, TEST_KEYS } from "../test/support/cli-process.ts";
import { RawSmtpClient } from "../test/support/raw-smtp-client.ts";
import { processTreeCpuSeconds } from "./process-cpu.ts";
import { parseSmtpAddress } from "./smtp-address.ts";

/** The slowest answer a stalled server may take here before the run gives up on it. */
const STALL_TIMEOUT_MS = 600_000;
const SENDER = "sender@example.org";
const out = (line: string) => process.stdout.write(`${line}\n`);

interface BenchServer {
  pid: number;
  inboxUrl: string;
  smtpPort: number;
  inbox: string;
  stop(): Promise<void>;
}

async function startBenchServer(): Promise<BenchServer> {
  const dir = await mkdtemp(join(tmpdir(), "smtp-abuse-"));
  const cli = await startCli([...ON_FREE_PORTS, "--database", join(dir, "bench.db")]);
  // The SMTP line follows the two API addresses startCli waits for.
  let smtp = parseSmtpAddress(cli.stdout());
  for (let tries = 0; !smtp && tries < 100; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    smtp = parseSmtpAddress(cli.stdout());
  }
  if (!smtp || cli.child.pid === undefined) {
    throw new Error(`The CLI printed no SMTP address:\n${cli.stdout()}`);
  }
  const response = await fetch(`${cli.inboxUrl}/v0/inboxes`, {
    method: "POST",
    headers: { Authorization: `Bearer ${TEST_KEYS.inbox}`, "Content-Type": "application/json" },
    body: JSON.stringify({ username: `abuse-${Date.now()}` }),
  });
  const { inbox_id: inbox } = (await response.json()) as { inbox_id: string };
  return {
    pid: cli.child.pid,
    inboxUrl: cli.inboxUrl,
    smtpPort: smtp.port,
    inbox,
    async stop() {
      cli.child.kill("SIGTERM");
      await cli.exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A process's memory figures from /proc, in MiB. */
async function memoryOf(pid: number): Promise<{ rssMiB: number; peakMiB: number }> {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? Number.NaN);
  return { rssMiB: Math.round(kib("VmRSS") / 1024), peakMiB: Math.round(kib("VmHWM") / 1024) };
}

/** One `GET /health` on a connection of its own (no keep-alive, so no reused socket the server has since closed). */
const health = (inboxUrl: string) =>
  new Promise<void>((resolve, reject) => {
    get(`${inboxUrl}/health`, { agent: false }, (response) => {
      response.resume();
      response.once("end", resolve);
    }).once("error", reject);
  });

/**
 * Asks `GET /health` one request after another until stopped; answers the slowest round trip, in ms, and how many
 * requests failed (a server stalled long enough drops the connections that wait).
 */
function probeHealth(inboxUrl: string): { stop(): Promise<{ slowestMs: number; failed: number }> } {
  let running = true;
  let slowest = 0;
  let failed = 0;
  const loop = (async () => {
    while (running) {
      const start = performance.now();
      await health(inboxUrl).catch(() => failed++);
      slowest = Math.max(slowest, performance.now() - start);
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return { slowestMs: Math.round(slowest), failed };
    },
  };
}

async function headerStall(server: BenchServer, headerKiB: number) {
  const client = await RawSmtpClient.open(server.smtpPort);
  try {
    await client.startTransaction(SENDER, [server.inbox]);
    const dataReply = await client.command("DATA");
    const message = [
      `From: ${fromValue(headerKiB * 1024)}`,
      `To: ${server.inbox}`,
      "Subject: a long From header",
      "",
      "Hello.",
      ".",
      "",
    ].join("\r\n");
    const probe = probeHealth(server.inboxUrl);
    const from = client.lines.length;
    const cpuBefore = processTreeCpuSeconds(server.pid) ?? Number.NaN;
    const start = performance.now();
    await client.write(message);
    const answer = await client.reply(from, STALL_TIMEOUT_MS).catch((error: unknown) => String(error));
    const smtpMs = Math.round(performance.now() - start);
    const healthProbe = await probe.stop();
    // The server's CPU time for the message (and the probe's small requests): what the stall costs whatever the load.
    const serverCpuSeconds = Math.round(((processTreeCpuSeconds(server.pid) ?? Number.NaN) - cpuBefore) * 10) / 10;
    return {
      headerKiB,
      dataReply: dataReply.slice(0, 3),
      answer: answer.slice(0, 120),
      smtpMs,
      serverCpuSeconds,
      healthProbe,
    };
  } finally {
    client.close();
  }
}

async function oversizeData(server: BenchServer, megabytes: number) {
  const before = await memoryOf(server.pid);
  const client = await RawSmtpClient.open(server.smtpPort);
  try {
    await client.startTransaction(SENDER, [server.inbox]);
    const dataReply = await client.command("DATA");
    const line = `${"x".repeat(998)}\r\n`;
    const chunk = Buffer.from(line.repeat(64));
    const header = `From: ${SENDER}\r\nTo: ${server.inbox}\r\nSubject: endless\r\n\r\n`;
    const from = client.lines.length;
    const start = performance.now();
    let written = 0;
    let open = await client.write(header);
    while (open && written < megabytes * 1024 * 1024) {
      open = await client.write(chunk);
      written += chunk.length;
    }
    if (open) {
      await client.write(".\r\n");
    }
    const answer = await client.reply(from, STALL_TIMEOUT_MS).catch((error: unknown) => String(error));
    const seconds = Math.round((performance.now() - start) / 100) / 10;
    const after = await memoryOf(server.pid);
    return {
      streamedMiB: Math.round(written / 1024 / 1024),
      dataReply: dataReply.slice(0, 3),
      answer: answer.slice(0, 120),
      seconds,
      rssBeforeMiB: before.rssMiB,
      peakBeforeMiB: before.peakMiB,
      peakAfterMiB: after.peakMiB,
    };
  } finally {
    client.close();
  }
}

/** The `From:` value: `pattern` repeated to `bytes`, folded into lines of `foldWidth` when given. */
function fromValue(bytes: number): string {
  const pattern = process.env.SMTP_ABUSE_HEADER_PATTERN || "a";
  const value = pattern.repeat(Math.ceil(bytes / pattern.length)).slice(0, bytes);
  const width = Number(process.env.SMTP_ABUSE_FOLD_WIDTH ?? "0");
  if (!(width > 0)) {
    return value;
  }
  const lines: string[] = [];
  for (let start = 0; start < value.length; start += width) {
    lines.push(value.slice(start, start + width));
  }
  return lines.join("\r\n ");
}

const headerSizes = (process.env.SMTP_ABUSE_HEADER_KB ?? "150,200").split(",").filter(Boolean).map(Number);
const dataMegabytes = Number(process.env.SMTP_ABUSE_DATA_MB ?? "300");

for (const headerKiB of headerSizes) {
  const server = await startBenchServer();
  out(`server pid ${server.pid}: From header of ${headerKiB} KiB`);
  try {
    out(`header stall ${JSON.stringify(await headerStall(server, headerKiB))}`);
  } finally {
    await server.stop();
  }
}
if (dataMegabytes > 0) {
  const server = await startBenchServer();
  out(`server pid ${server.pid}: ${dataMegabytes} MiB of DATA`);
  try {
    out(`oversize DATA ${JSON.stringify(await oversizeData(server, dataMegabytes))}`);
  } finally {
    await server.stop();
  }
}
