// The server's memory while live event subscribers stop reading: the server runs in its own process (the CLI, SQLite
// in memory), STALLED_SUBSCRIBERS (60) WebSocket clients subscribe and then pause their sockets, and one message of
// STALLED_MESSAGE_MB (4) MiB arrives over SMTP. Prints the process's resident memory (VmRSS) before the message and
// its peak (VmHWM) over the STALLED_WATCH_SECONDS (8) after, and how each subscriber's connection ended. Linux only.
// Usage: pnpm --filter @pigeonhole/server exec node bench/stalled-readers.ts (STALLED_SERVER_ARGS: more flags)
import { readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import nodemailer from "nodemailer";
import { WebSocket } from "ws";
import { ON_FREE_PORTS, startCli, TEST_KEYS } from "../test/support/cli-process.ts";

const out = (line: string) => process.stdout.write(`${line}\n`);
const subscribers = Number(process.env.STALLED_SUBSCRIBERS ?? 60);
const messageMb = Number(process.env.STALLED_MESSAGE_MB ?? 4);
const watchSeconds = Number(process.env.STALLED_WATCH_SECONDS ?? 8);

/** A field of /proc/<pid>/status, in MiB. */
function memoryMb(pid: number, field: "VmRSS" | "VmHWM"): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8")
    .split("\n")
    .find((each) => each.startsWith(`${field}:`));
  return Math.round(Number(/(\d+)/.exec(line ?? "")?.[1] ?? 0) / 1024);
}

async function subscribe(url: string): Promise<{ ws: WebSocket; closed: Promise<number> }> {
  const ws = new WebSocket(`${url.replace(/^http/, "ws")}/v0/ws`, {
    headers: { Authorization: `Bearer ${TEST_KEYS.inbox}` },
  });
  const closed = new Promise<number>((resolve) => ws.on("close", (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    ws.once("open", () => resolve());
    ws.once("error", reject);
  });
  ws.send(JSON.stringify({ type: "subscribe", event_types: ["message.received"] }));
  await new Promise<void>((resolve) => ws.once("message", () => resolve()));
  ws.pause();
  return { ws, closed };
}

// One key holds every subscriber: its connection cap must let them all in.
const serverArgs = (process.env.STALLED_SERVER_ARGS ?? `--websocket-connections-per-key ${subscribers}`)
  .split(" ")
  .filter(Boolean);
const cli = await startCli(["--memory", ...ON_FREE_PORTS, "--quiet", ...serverArgs]);
const pid = cli.child.pid as number;
try {
  // The banner's SMTP line follows the two addresses the start waits for.
  let smtp: RegExpExecArray | null = null;
  for (let tries = 0; tries < 100 && !smtp; tries++) {
    smtp = /SMTP\s+smtp:\/\/([^:\s]+):(\d+)/.exec(cli.stdout());
    if (!smtp) {
      await sleep(50);
    }
  }
  if (!smtp) {
    throw new Error(`No SMTP address in the banner:\n${cli.stdout()}`);
  }
  const created = await fetch(`${cli.inboxUrl}/v0/inboxes`, {
    method: "POST",
    headers: { Authorization: `Bearer ${TEST_KEYS.inbox}`, "Content-Type": "application/json" },
    body: JSON.stringify({ username: "stalled" }),
  });
  const { inbox_id: inboxId } = (await created.json()) as { inbox_id: string };
  const streams = [];
  for (let i = 0; i < subscribers; i++) {
    streams.push(await subscribe(cli.inboxUrl));
  }
  const before = memoryMb(pid, "VmRSS");
  const transport = nodemailer.createTransport({
    host: smtp[1],
    port: Number(smtp[2]),
    secure: false,
    ignoreTLS: true,
  });
  const started = performance.now();
  await transport.sendMail({
    from: "sender@example.com",
    to: inboxId,
    subject: "A large message",
    text: "x".repeat(messageMb * 1024 * 1024),
  });
  transport.close();
  const stored = performance.now() - started;
  let peak = memoryMb(pid, "VmHWM");
  for (let waited = 0; waited < watchSeconds * 1000; waited += 250) {
    await sleep(250);
    peak = memoryMb(pid, "VmHWM");
  }
  const after = memoryMb(pid, "VmRSS");
  // The clients read again, so that each learns whether the server closed its connection, and how.
  const codes = new Map<string, number>();
  for (const { ws } of streams) {
    ws.resume();
  }
  await Promise.all(
    streams.map(async ({ ws, closed }) => {
      const code = await Promise.race([closed, sleep(3_000).then(() => "still open")]);
      if (code === "still open") {
        ws.terminate();
      }
      codes.set(String(code), (codes.get(String(code)) ?? 0) + 1);
    }),
  );
  out(`subscribers that never read       ${subscribers}`);
  out(`message received over SMTP        ${messageMb} MiB (stored in ${Math.round(stored)} ms)`);
  out(`server RSS before the message     ${before} MiB`);
  out(`server peak RSS (VmHWM) after     ${peak} MiB  (+${peak - before} MiB)`);
  out(`server RSS ${watchSeconds} s after the message  ${after} MiB`);
  out(`close codes the clients saw       ${[...codes].map(([code, count]) => `${code} x${count}`).join(", ")}`);
} finally {
  cli.child.kill("SIGTERM");
  await cli.exited;
}
