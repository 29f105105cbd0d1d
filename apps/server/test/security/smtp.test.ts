import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { swaks as runSwaks } from "@pigeonhole/mail-testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_HEADER_SECTION_BYTES } from "../../src/mail/inbound/header-limits.ts";
import { RawSmtpClient } from "../support/raw-smtp-client.ts";
import type { LoggedLine } from "../support/recording-logger.ts";
import { recordingLogger } from "../support/recording-logger.ts";
import type { TestServer } from "../support/test-server.ts";
import { expectData, startTestServer } from "../support/test-server.ts";

// Hostile senders over real SMTP (Debian's swaks, or a plain socket where a client must send what no mail client
// would): each costs the server a bounded amount of work and memory, and is answered with a clear reply.

const MAX_SIZE = 256 * 1024;
let t: TestServer;
let logged: LoggedLine[];
let smtpPort: number;
let workDir: string;
beforeAll(async () => {
  const recording = recordingLogger();
  logged = recording.lines;
  t = await startTestServer({ smtpPort: 0, smtpMaxSize: MAX_SIZE, logger: recording.logger });
  smtpPort = t.server.smtp?.port ?? 0;
  workDir = await mkdtemp(join(tmpdir(), "smtp-security-"));
});
afterAll(async () => {
  await t.server.close();
  await rm(workDir, { recursive: true, force: true });
});

/** Sends `message` (lines joined with CRLF) as the data of one transaction through swaks, and answers its output. */
async function swaksData(message: readonly string[], from: string, to: string): Promise<string> {
  const file = join(workDir, `${Math.random().toString(36).slice(2)}.eml`);
  // swaks ends the data with a CRLF of its own.
  await writeFile(file, message.join("\r\n"));
  const result = await runSwaks([
    ...["--server", `127.0.0.1:${smtpPort}`, "--timeout", "20"],
    ...["--from", from, "--to", to, "--data", `@${file}`],
  ]);
  return result.output;
}

async function newInbox(username: string): Promise<string> {
  return expectData(await t.inbox.POST("/v0/inboxes", { body: { username } })).inbox_id;
}

async function messagesOf(inboxId: string) {
  return expectData(await t.inbox.GET("/v0/inboxes/{inbox_id}/messages", { params: { path: { inbox_id: inboxId } } }))
    .messages;
}

/** The server's log lines about messages it refused. */
const refusals = () => logged.filter((line) => line.msg === "smtp message refused");

/** `value` folded into header lines of at most `width` characters, as a long header is written. */
const fold = (value: string, width: number) =>
  Array.from({ length: Math.ceil(value.length / width) }, (_, index) =>
    value.slice(index * width, (index + 1) * width),
  ).join("\r\n ");

describe("header bounds", () => {
  it("refuses a header line past RFC 5322's 998 characters with 554 5.6.0, before parsing, and stores nothing", async () => {
    const inbox = await newInbox("long-line");
    // A 150 KiB `From:` without `@`: an address regex over it once took the whole server for minutes.
    const output = await swaksData(
      [`From: ${"a".repeat(150 * 1024)}`, `To: ${inbox}`, "Subject: long line", "", "Hello."],
      "sender@example.org",
      inbox,
    );
    expect(output).toMatch(/<\*\* {1,2}554 5\.6\.0 Header line too long: at most 998 characters/);
    expect(await messagesOf(inbox)).toEqual([]);
    // Refused as the line went past its bound; the rest of the data was read and discarded.
    expect(refusals().at(-1)).toMatchObject({ reply: expect.stringMatching(/^554 5\.6\.0 /) });
    expect(refusals().at(-1)?.received_bytes).toBeGreaterThan(150 * 1024);
  });

  it("refuses a header section past 64 KiB with 552 5.3.4, however its lines are folded, and stores nothing", async () => {
    const inbox = await newInbox("long-section");
    const output = await swaksData(
      [`From: ${fold("a".repeat(150 * 1024), 900)}`, `To: ${inbox}`, "Subject: long section", "", "Hello."],
      "sender@example.org",
      inbox,
    );
    expect(output).toMatch(/<\*\* {1,2}552 5\.3\.4 Message header too big: at most 65536 bytes/);
    expect(await messagesOf(inbox)).toEqual([]);
    expect(refusals().at(-1)).toMatchObject({ reply: expect.stringMatching(/^552 5\.3\.4 Message header too big/) });
  });

  it("refuses a MIME part whose header block is past the bound, as the message's own", async () => {
    const inbox = await newInbox("long-part-header");
    const output = await swaksData(
      [
        "From: sender@example.org",
        `To: ${inbox}`,
        "Subject: long part header",
        "MIME-Version: 1.0",
        'Content-Type: multipart/mixed; boundary="b"',
        "",
        "--b",
        `X-Filler: ${fold("a".repeat(MAX_HEADER_SECTION_BYTES + 1024), 900)}`,
        "Content-Type: text/plain",
        "",
        "Hello.",
        "--b--",
      ],
      "sender@example.org",
      inbox,
    );
    expect(output).toMatch(/<\*\* {1,2}552 5\.3\.4 Message refused: /);
    expect(await messagesOf(inbox)).toEqual([]);
  });

  it("accepts a long header within the bounds and takes the sender's address from the parsed header", async () => {
    const inbox = await newInbox("parsed-from");
    // The display name holds something that looks like an address; the mailbox is the one in the angle brackets.
    const output = await swaksData(
      [
        `From: "Boss <boss@partner.example> ${fold("a".repeat(40 * 1024), 900)}" <mallory@example.org>`,
        `To: ${inbox}`,
        "Subject: parsed sender",
        "",
        "Hello.",
      ],
      "mallory@example.org",
      inbox,
    );
    expect(output).toMatch(/<- {1,2}250 2\.0\.0 Ok: stored/);
    const [message] = await messagesOf(inbox);
    expect(message?.from).toMatch(/<mallory@example\.org>$/);
    const thread = expectData(
      await t.inbox.GET("/v0/inboxes/{inbox_id}/threads/{thread_id}", {
        params: { path: { inbox_id: inbox, thread_id: message?.thread_id ?? "" } },
      }),
    );
    expect(thread.participants).toEqual(["mallory@example.org", inbox]);
  });
});

describe("message size", () => {
  it("answers 552 5.3.4 to data far past the limit, keeping no more than the limit, and the session goes on", async () => {
    const inbox = await newInbox("oversize");
    const client = await RawSmtpClient.open(smtpPort);
    try {
      await client.startTransaction("sender@example.org", [inbox]);
      expect(await client.command("DATA")).toMatch(/^354 /);
      const from = client.lines.length;
      // 64 times the limit, written one chunk at a time as the server takes it.
      const chunk = Buffer.from(`${"x".repeat(1022)}\r\n`.repeat(64));
      const streamed = 64 * MAX_SIZE;
      expect(await client.write(`From: sender@example.org\r\nTo: ${inbox}\r\nSubject: endless\r\n\r\n`)).toBe(true);
      for (let written = 0; written < streamed; written += chunk.length) {
        expect(await client.write(chunk)).toBe(true);
      }
      expect(await client.write(".\r\n")).toBe(true);
      expect(await client.reply(from)).toMatch(/^552 5\.3\.4 Message too big: at most 262144 bytes/);

      // Everything was read and discarded past the limit: what the listener held never grew with the stream.
      const refusal = refusals().at(-1);
      expect(refusal?.received_bytes).toBeGreaterThan(streamed);
      expect(refusal?.kept_bytes).toBeLessThanOrEqual(MAX_SIZE);

      // The connection is in step: the next transaction on it is served.
      expect(await client.command("MAIL FROM:<sender@example.org>")).toMatch(/^250 /);
      expect(await client.command(`RCPT TO:<${inbox}>`)).toMatch(/^250 /);
      expect(await client.command("DATA")).toMatch(/^354 /);
      expect(
        await client.command(`From: sender@example.org\r\nTo: ${inbox}\r\nSubject: small\r\n\r\nHi.\r\n.`),
      ).toMatch(/^250 2\.0\.0 Ok: stored/);
      expect((await messagesOf(inbox)).map((message) => message.subject)).toEqual(["small"]);
    } finally {
      client.close();
    }
  });
});

describe("SMTP connections in all", () => {
  const CAP = 3;
  let capped: TestServer;
  const clients: RawSmtpClient[] = [];
  beforeAll(async () => {
    capped = await startTestServer({ smtpPort: 0, smtpMaxConnections: CAP, smtpConnectionsPerAddress: 10 });
  });
  afterAll(async () => {
    for (const client of clients) {
      client.close();
    }
    await capped.server.close();
  });

  async function connect(): Promise<RawSmtpClient> {
    const client = await RawSmtpClient.open(capped.server.smtp?.port ?? 0);
    clients.push(client);
    return client;
  }

  it("refuses the connection past the cap with 421 and closes it; the earlier ones stay served", async () => {
    const admitted: RawSmtpClient[] = [];
    for (let index = 0; index < CAP; index++) {
      const client = await connect();
      expect(await client.line(0)).toMatch(/^220 /);
      admitted.push(client);
    }

    const over = await connect();
    expect(await over.line(0)).toMatch(/^421 /);
    await over.closed;
    expect(over.lines).toHaveLength(1);

    const inbox = expectData(await capped.inbox.POST("/v0/inboxes", { body: { username: "capped" } })).inbox_id;
    for (const client of admitted) {
      expect(await client.command("EHLO client.example")).toMatch(/^250 /);
    }
    const [first] = admitted;
    if (!first) {
      throw new Error("no connection");
    }
    expect(await first.command("MAIL FROM:<sender@example.org>")).toMatch(/^250 /);
    expect(await first.command(`RCPT TO:<${inbox}>`)).toMatch(/^250 /);
    expect(await first.command("DATA")).toMatch(/^354 /);
    expect(await first.command(`From: sender@example.org\r\nTo: ${inbox}\r\nSubject: served\r\n\r\nHi.\r\n.`)).toMatch(
      /^250 /,
    );

    // A connection that ends frees its place at once.
    expect(await first.command("QUIT")).toMatch(/^221 /);
    await first.closed;
    const next = await connect();
    expect(await next.line(0)).toMatch(/^220 /);
  });
});
