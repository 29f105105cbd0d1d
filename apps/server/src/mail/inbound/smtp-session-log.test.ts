import { swaks as runSwaks } from "@pigeonhole/mail-testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { RawSmtpClient } from "../../../test/support/raw-smtp-client.ts";
import type { LoggedLine } from "../../../test/support/recording-logger.ts";
import { recordingLogger } from "../../../test/support/recording-logger.ts";
import type { TestServer } from "../../../test/support/test-server.ts";
import { expectData, startTestServer } from "../../../test/support/test-server.ts";

// What the SMTP listener logs of real clients (Debian's swaks, and a plain socket where the client must misbehave):
// each session's opening and close, each message accepted or refused and each recipient refused, with the reason.

const MAX_SIZE = 32 * 1024;
let t: TestServer;
let logged: LoggedLine[];
let smtpServer: string;
beforeAll(async () => {
  const recording = recordingLogger();
  logged = recording.lines;
  t = await startTestServer({ smtpPort: 0, smtpMaxSize: MAX_SIZE, logger: recording.logger });
  smtpServer = `127.0.0.1:${t.server.smtp?.port}`;
});
afterAll(() => t.server.close());

const swaks = (args: readonly string[]) => runSwaks(["--server", smtpServer, "--timeout", "20", ...args]);

async function newInbox(username: string): Promise<string> {
  return expectData(await t.inbox.POST("/v0/inboxes", { body: { username } })).inbox_id;
}

/** The lines of the session whose closing line `matches`, once it has closed. */
async function sessionLines(matches: (closed: LoggedLine) => boolean): Promise<LoggedLine[]> {
  const closed = await vi.waitFor(
    () => {
      const line = logged.find((each) => each.msg === "smtp session closed" && matches(each));
      expect(line).toBeDefined();
      return line;
    },
    { timeout: 5_000, interval: 20 },
  );
  return logged.filter((line) => line.session_id === closed?.session_id);
}

describe("SMTP log lines", () => {
  it("open and close each session with the client's address, and log an accepted message without its content", async () => {
    const inbox = await newInbox("logged-arrival");
    const result = await swaks([
      ...["--from", "sender@example.org", "--to", inbox],
      ...["--header", "Subject: the secret plan", "--body", "meet at the old mill"],
    ]);
    expect(result.exitCode, result.output).toBe(0);
    const lines = await sessionLines((closed) => closed.messages_accepted === 1 && closed.messages_refused === 0);
    expect(lines.map((line) => line.msg)).toEqual([
      "smtp session opened",
      "smtp message accepted",
      "smtp session closed",
    ]);
    for (const line of lines) {
      expect(line).toMatchObject({ level: "info", client_address: "127.0.0.1", session_id: expect.any(String) });
    }
    expect(lines[1]).toMatchObject({
      from: "sender@example.org",
      recipients: 1,
      message_id: expect.stringMatching(/^<.+@.+>$/),
      size_bytes: expect.any(Number),
    });
    expect(lines[2]).toMatchObject({ duration_ms: expect.any(Number), recipients_refused: 0 });
    const text = JSON.stringify(logged);
    expect(text).not.toContain("secret plan");
    expect(text).not.toContain("old mill");
  });

  it("log each refused recipient with its reason: no such inbox, or a domain not hosted here", async () => {
    const result = await swaks(["--from", "sender@example.org", "--to", "nobody-here@pigeonhole.test"]);
    expect(result.exitCode).toBe(24);
    const unknown = await sessionLines((closed) => closed.recipients_refused === 1);
    expect(unknown.find((line) => line.msg === "smtp recipient refused")).toMatchObject({
      recipient: "nobody-here@pigeonhole.test",
      reason: "unknown_recipient",
      reply: expect.stringMatching(/^550 5\.1\.1 /),
      client_address: "127.0.0.1",
    });

    await swaks(["--from", "sender@example.org", "--to", "someone@elsewhere.example"]);
    await vi.waitFor(() =>
      expect(logged.find((line) => line.recipient === "someone@elsewhere.example")).toMatchObject({
        msg: "smtp recipient refused",
        reason: "domain_not_hosted",
      }),
    );
  });

  it("log a message refused for its size, with what reading it cost", async () => {
    const inbox = await newInbox("logged-too-big");
    const result = await swaks(["--from", "sender@example.org", "--to", inbox, "--body", "x".repeat(MAX_SIZE + 1)]);
    expect(result.output).toMatch(/552 5\.3\.4 Message too big/);
    const lines = await sessionLines((closed) => closed.messages_refused === 1);
    expect(lines.find((line) => line.msg === "smtp message refused")).toMatchObject({
      reason: "message_too_big",
      reply: expect.stringMatching(/^552 5\.3\.4 /),
      received_bytes: expect.any(Number),
      kept_bytes: expect.any(Number),
    });
  });

  it("name in the closing line the last error smtp-server answered on its own, such as a sender it cannot read", async () => {
    const client = await RawSmtpClient.open(t.server.smtp?.port ?? 0);
    try {
      expect(await client.line(0)).toMatch(/^220 /);
      expect(await client.command("EHLO client.example")).toMatch(/^250 /);
      expect(await client.command("MAIL FROM:<no-at-sign>")).toMatch(/^501 /);
      expect(await client.command("QUIT")).toMatch(/^221 /);
      await client.closed;
    } finally {
      client.close();
    }
    const lines = await sessionLines((closed) => String(closed.last_error).startsWith("501 "));
    expect(lines.at(-1)).toMatchObject({ messages_accepted: 0, client_address: "127.0.0.1" });
  });
});

describe("SMTP connections refused", () => {
  it("are logged with the client's address and which limit refused them", async () => {
    const recording = recordingLogger();
    const limited = await startTestServer({
      smtpPort: 0,
      smtpConnectionsPerAddress: 1,
      smtpMaxConnections: 2,
      logger: recording.logger,
    });
    const clients: RawSmtpClient[] = [];
    const open = async () => {
      const client = await RawSmtpClient.open(limited.server.smtp?.port ?? 0);
      clients.push(client);
      return client;
    };
    try {
      expect(await (await open()).line(0)).toMatch(/^220 /);
      // A second connection from this address is one too many for it.
      const perAddress = await open();
      expect(await perAddress.line(0)).toMatch(/^421 4\.7\.0 /);
      await perAddress.closed;
      expect(recording.lines.filter((line) => line.msg === "smtp connection refused")).toEqual([
        expect.objectContaining({ level: "info", client_address: "127.0.0.1", reason: "connections_per_address" }),
      ]);

      // A connection still waiting for its greeting counts in all: with one served and one waiting, a third is past
      // the cap, and smtp-server refuses it before anything of ours sees it.
      const waiting = await open();
      const overall = await open();
      expect(await overall.line(0)).toMatch(/^421 /);
      await waiting.closed;
      await vi.waitFor(() =>
        expect(recording.lines.filter((line) => line.reason === "connections_in_all")).toEqual([
          expect.objectContaining({ msg: "smtp connection refused", client_address: "127.0.0.1" }),
        ]),
      );
    } finally {
      for (const client of clients) {
        client.close();
      }
      await limited.server.close();
    }
  });
});
