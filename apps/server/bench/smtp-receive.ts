import { randomBytes } from "node:crypto";
import nodemailer from "nodemailer";
import { startCpuWindow } from "./cpu-window.ts";
import { type InboxTarget, listAllMessages } from "./inbox-api.ts";
import type { MailMeasurement } from "./mail-report.ts";
import { percentile } from "./percentile.ts";
import { reconcile } from "./reconcile.ts";
import type { SmtpAddress } from "./smtp-address.ts";

export interface SmtpReceiveTargets {
  /** Each instance's SMTP address; the connections are spread evenly over them. */
  smtp: readonly SmtpAddress[];
  /** The inbox the messages are addressed to, read back through the API of any instance. */
  inbox: InboxTarget;
  serverPids: readonly number[];
  databasePid?: number;
}

export interface SmtpReceiveSettings {
  messages: number;
  connections: number;
}

/** How long one message may take over SMTP, from connecting to the server's answer to its data. */
const MESSAGE_TIMEOUT_MS = 30_000;

/**
 * Sends `messages` small messages into the servers' SMTP ports over `connections` pooled connections (Nodemailer's
 * SMTP pool, one message at a time on each), then looks for each accepted message in the inbox through the API.
 * Bounded: every message is one SMTP transaction with its own timeout.
 */
export async function runSmtpReceive(
  targets: SmtpReceiveTargets,
  settings: SmtpReceiveSettings,
): Promise<MailMeasurement> {
  if (targets.smtp.length === 0) {
    throw new Error("No SMTP address to send the messages to.");
  }
  // Each connection is one sender that waits for its answer before the next message, on its instance's pool.
  const senders = Math.min(settings.connections, settings.messages);
  const transports = targets.smtp.map((address, index) =>
    nodemailer.createTransport({
      host: address.host,
      port: address.port,
      secure: false,
      ignoreTLS: true,
      pool: true,
      maxConnections: Math.max(1, Math.ceil((senders - index) / targets.smtp.length)),
      maxMessages: Number.POSITIVE_INFINITY,
      connectionTimeout: MESSAGE_TIMEOUT_MS,
      greetingTimeout: MESSAGE_TIMEOUT_MS,
      socketTimeout: MESSAGE_TIMEOUT_MS,
    }),
  );
  try {
    // Subjects tell this run's messages apart from any other mail of the inbox.
    const run = randomBytes(4).toString("hex");
    const subject = (index: number) => `SMTP benchmark ${run} #${index}`;
    const accepted: string[] = [];
    const latencies: number[] = [];
    let failed = 0;
    let firstError: unknown;
    let next = 0;
    const window = startCpuWindow({ servers: targets.serverPids, database: targets.databasePid });
    const started = performance.now();
    await Promise.all(
      Array.from({ length: senders }, async (_, sender) => {
        const transport = transports[sender % transports.length];
        if (!transport) {
          return;
        }
        while (next < settings.messages) {
          const index = next++;
          const start = performance.now();
          try {
            await transport.sendMail({
              from: "bench-sender@example.org",
              to: targets.inbox.inbox,
              subject: subject(index),
              text: `Message ${index} of the SMTP benchmark.`,
            });
            latencies.push(performance.now() - start);
            accepted.push(subject(index));
          } catch (error) {
            failed++;
            firstError ??= error;
          }
        }
      }),
    );
    const elapsedSeconds = (performance.now() - started) / 1000;
    const cpu = window();
    if (accepted.length === 0) {
      throw new Error(`The server accepted none of the messages over SMTP: ${String(firstError)}`);
    }
    const stored = await listAllMessages(targets.inbox, ["received"]);
    const found = stored.flatMap((message) =>
      message.subject?.startsWith(`SMTP benchmark ${run} `) ? [message.subject] : [],
    );
    return {
      name: "SMTP receive (250 after commit)",
      messages: settings.messages,
      perSecond: accepted.length / elapsedSeconds,
      latencyMs: { p50: percentile(latencies, 50), p99: percentile(latencies, 99) },
      cpu,
      check: { verb: "stored", failed, ...reconcile(accepted, found) },
    };
  } finally {
    for (const transport of transports) {
      transport.close();
    }
  }
}
