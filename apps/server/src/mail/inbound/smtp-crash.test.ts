import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import nodemailer from "nodemailer";
import { afterAll, describe, expect, it } from "vitest";
import type { CliProcess } from "../../../test/support/cli-process.ts";
import { ON_FREE_PORTS, runCli, TEST_KEYS } from "../../../test/support/cli-process.ts";
import { newTestDatabase, testBackend } from "../../../test/support/test-database.ts";
import type { InboxClient } from "../../../test/support/test-server.ts";
import { expectData, inboxClient } from "../../../test/support/test-server.ts";

// The server runs as its own process (the CLI) so it can be killed with SIGKILL in the middle of receiving mail.

const MESSAGES = 200;
const CONNECTIONS = 4;
const LOAD_MS = 20_000;
/** How many messages must be answered 250 before the kill, so it lands while mail is still coming in. */
const ACKED_BEFORE_KILL = 40;

const dir = mkdtempSync(join(tmpdir(), "pigeonhole-smtp-crash-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cliArgs = (database: string) => [
  "--database",
  database,
  "--dev-keys",
  ...ON_FREE_PORTS,
  "--quiet",
  "--inbox-requests-per-minute",
  "1000000",
];

/** The CLI with its SMTP port, which it prints after the API addresses. */
async function startServer(database: string): Promise<{ cli: CliProcess; smtpPort: number }> {
  const cli = await runCli(cliArgs(database));
  const deadline = Date.now() + 10_000;
  for (;;) {
    const port = /SMTP\s+smtp:\/\/127\.0\.0\.1:(\d+)/.exec(cli.stdout())?.[1];
    if (port) {
      return { cli, smtpPort: Number(port) };
    }
    if (Date.now() > deadline) {
      cli.child.kill("SIGKILL");
      throw new Error(`The CLI printed no SMTP address.\n${cli.stdout()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Every subject in the inbox, page after page. */
async function allSubjects(inbox: InboxClient, inboxId: string): Promise<string[]> {
  const subjects: string[] = [];
  let pageToken: string | undefined;
  do {
    const page = expectData(
      await inbox.GET("/v0/inboxes/{inbox_id}/messages", {
        params: { path: { inbox_id: inboxId }, query: { limit: 100, page_token: pageToken } },
      }),
    );
    subjects.push(...page.messages.map((message) => message.subject ?? ""));
    pageToken = page.next_page_token ?? undefined;
  } while (pageToken !== undefined);
  return subjects;
}

describe("receiving mail through kill -9", () => {
  it("keeps every message answered 250, each once, after a hard kill and a restart", async () => {
    const database = testBackend() === "postgres" ? await newTestDatabase() : join(dir, "server.db");
    const first = await startServer(database);
    const inboxId = expectData(
      await inboxClient(first.cli.inboxUrl, TEST_KEYS.inbox).POST("/v0/inboxes", {
        body: { username: "smtp-crash" },
      }),
    ).inbox_id;

    // One pooled connection per sender; each waits for the answer to a message before sending the next.
    const transports = Array.from({ length: CONNECTIONS }, () =>
      nodemailer.createTransport({
        host: "127.0.0.1",
        port: first.smtpPort,
        secure: false,
        ignoreTLS: true,
        pool: true,
        maxConnections: 1,
        connectionTimeout: 5_000,
        greetingTimeout: 5_000,
        socketTimeout: 5_000,
      }),
    );
    const run = randomBytes(4).toString("hex");
    const acked: string[] = [];
    let failed = 0;
    let next = 0;
    let killed = false;
    const deadline = Date.now() + LOAD_MS;
    const senders = transports.map(async (transport) => {
      while (!killed && next < MESSAGES && Date.now() < deadline) {
        const subject = `crash ${run} #${next++}`;
        try {
          const info = await transport.sendMail({
            from: "loader@example.org",
            to: inboxId,
            subject,
            text: `${subject}\n`,
          });
          if (info.response.startsWith("250 ")) {
            acked.push(subject);
          }
        } catch {
          failed++;
        }
      }
    });

    try {
      while (acked.length < ACKED_BEFORE_KILL) {
        if (Date.now() > deadline) {
          throw new Error(`Only ${acked.length} messages were accepted before the deadline (${failed} failed).`);
        }
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      first.cli.child.kill("SIGKILL");
      killed = true;
      const { signal } = await first.cli.exited;
      expect(signal).toBe("SIGKILL");
      await Promise.all(senders);
    } finally {
      for (const transport of transports) {
        transport.close();
      }
      first.cli.child.kill("SIGKILL");
    }
    const load = JSON.stringify({ acked: acked.length, sent: next, failed });
    // The kill fell in the middle of the load, not after it.
    expect(acked.length, load).toBeLessThan(MESSAGES);
    expect(new Set(acked).size, load).toBe(acked.length);

    const second = await startServer(database);
    try {
      const subjects = await allSubjects(inboxClient(second.cli.inboxUrl, TEST_KEYS.inbox), inboxId);
      const counts = new Map<string, number>();
      for (const subject of subjects) {
        counts.set(subject, (counts.get(subject) ?? 0) + 1);
      }
      const found = `${load}, ${subjects.length} stored`;
      expect(
        acked.filter((subject) => counts.get(subject) !== 1),
        found,
      ).toEqual([]);
      expect(
        [...counts].filter(([, count]) => count > 1),
        found,
      ).toEqual([]);
      // Only mail of this run is there: at most what was sent, at least what was answered 250.
      expect(subjects.every((subject) => subject.startsWith(`crash ${run} #`))).toBe(true);
      expect(subjects.length, found).toBeLessThanOrEqual(next);
    } finally {
      second.cli.child.kill("SIGTERM");
      await second.cli.exited;
    }
  }, 90_000);
});
