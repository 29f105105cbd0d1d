import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { swaks as runSwaks } from "@pigeonhole/mail-testing";
import MailComposer from "nodemailer/lib/mail-composer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestServer } from "../../../test/support/test-server.ts";
import { expectData, startTestServer } from "../../../test/support/test-server.ts";
import { startWebhookReceiver } from "../../../test/support/webhook-receiver.ts";

// Mail comes in through Debian's swaks, a real SMTP client, over loopback.

const MAX_SIZE = 64 * 1024;
let t: TestServer;
let workDir: string;
let smtpServer: string;
beforeAll(async () => {
  t = await startTestServer({ smtpPort: 0, smtpMaxSize: MAX_SIZE, domains: ["pigeonhole.test", "mail.example.net"] });
  workDir = await mkdtemp(join(tmpdir(), "smtp-inbound-"));
  smtpServer = `127.0.0.1:${t.server.smtp?.port}`;
});
afterAll(async () => {
  await t.server.close();
  await rm(workDir, { recursive: true, force: true });
});

/** swaks against the server's SMTP port. */
const swaks = (args: readonly string[]) => runSwaks(["--server", smtpServer, "--timeout", "20", ...args]);

/**
 * Sends `raw` (ending in CRLF) as the message data and answers what swaks printed. swaks sends a file's bytes as
 * they are and ends the data with CRLF of its own, so the file holds `raw` without its last CRLF.
 */
async function swaksData(raw: Buffer, from: string, to: readonly string[]) {
  const file = join(workDir, `${Math.random().toString(36).slice(2)}.eml`);
  await writeFile(file, raw.subarray(0, -2));
  return swaks(["--from", from, "--to", to.join(","), "--data", `@${file}`]);
}

/** A message built by Nodemailer, ending in CRLF as SMTP data does (so the bytes swaks sends are exactly these). */
async function compose(mail: ConstructorParameters<typeof MailComposer>[0]): Promise<Buffer> {
  const raw = await new MailComposer({ ...mail, newline: "\r\n" }).compile().build();
  return raw.subarray(-2).toString() === "\r\n" ? raw : Buffer.concat([raw, Buffer.from("\r\n")]);
}

async function newInbox(username: string, domain?: string) {
  return expectData(await t.inbox.POST("/v0/inboxes", { body: { username, domain } })).inbox_id;
}

async function onlyMessage(inboxId: string) {
  const list = expectData(
    await t.inbox.GET("/v0/inboxes/{inbox_id}/messages", { params: { path: { inbox_id: inboxId } } }),
  );
  expect(list.messages, inboxId).toHaveLength(1);
  const item = list.messages[0];
  if (!item) {
    throw new Error("no message");
  }
  return expectData(
    await t.inbox.GET("/v0/inboxes/{inbox_id}/messages/{message_id}", {
      params: { path: { inbox_id: inboxId, message_id: item.message_id } },
    }),
  );
}

async function rawSource(inboxId: string, messageId: string): Promise<Buffer> {
  const response = await fetch(
    `${t.server.inbox.url}/v0/inboxes/${encodeURIComponent(inboxId)}/messages/${encodeURIComponent(messageId)}/raw`,
    { headers: { Authorization: `Bearer ${t.server.inbox.apiKey}` } },
  );
  expect(response.status).toBe(200);
  return Buffer.from(await response.arrayBuffer());
}

describe("receiving mail over SMTP", () => {
  it("stores a plain message labelled received and unread, with its exact source, and raises message.received", async () => {
    const inbox = await newInbox("plain-in");
    const receiver = await startWebhookReceiver();
    try {
      expectData(
        await t.inbox.POST("/v0/webhooks", { body: { url: receiver.url, event_types: ["message.received"] } }),
      );
      const raw = await compose({
        from: "Ada Lovelace <ada@example.com>",
        to: inbox,
        subject: "Plain hello",
        text: "Hello from outside.\r\n",
        messageId: "<plain-1@example.com>",
        date: new Date("2026-11-22T09:30:00.000Z"),
      });
      const sent = await swaksData(raw, "ada@example.com", [inbox]);
      expect(sent.output).toMatch(/<- {1,2}250 2\.0\.0 Ok: stored/);
      expect(sent.exitCode).toBe(0);

      const message = await onlyMessage(inbox);
      expect(message).toMatchObject({
        message_id: "<plain-1@example.com>",
        from: "Ada Lovelace <ada@example.com>",
        to: [inbox],
        bcc: [],
        subject: "Plain hello",
        text: "Hello from outside.\n",
        html: null,
        labels: ["received", "unread"],
        timestamp: "2026-11-22T09:30:00.000Z",
        deliveries: [],
        size: raw.length,
      });
      expect(await rawSource(inbox, message.message_id)).toEqual(raw);

      const [delivery] = await receiver.waitFor(1);
      const event = JSON.parse(delivery?.body ?? "{}") as { event_type: string; message: { message_id: string } };
      expect(event.event_type).toBe("message.received");
      expect(event.message.message_id).toBe("<plain-1@example.com>");
    } finally {
      await receiver.close();
    }
  });

  it("parses multipart mail with non-ASCII text, html, an attachment and an inline image, into every recipient", async () => {
    const first = await newInbox("multi-a");
    const second = await newInbox("multi-b", "mail.example.net");
    const pdf = Buffer.from("%PDF-1.4 \u0000\u00ff binary bytes");
    const png = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");
    const raw = await compose({
      from: "José Núñez <jose@example.es>",
      to: [first],
      cc: [second],
      subject: "Größe: 日本語のテスト ✓",
      text: "Grüße aus Köln — ça va? 日本",
      html: '<p>Grüße <img src="cid:logo@example.es"></p>',
      messageId: "<multi-1@example.es>",
      textEncoding: "quoted-printable",
      attachments: [
        { filename: "naïve.pdf", content: pdf, contentType: "application/pdf" },
        { filename: "logo.png", content: png, contentType: "image/png", cid: "logo@example.es" },
      ],
    });
    const sent = await swaksData(raw, "jose@example.es", [first, second]);
    expect(sent.exitCode, sent.output).toBe(0);
    for (const inbox of [first, second]) {
      const message = await onlyMessage(inbox);
      expect(message).toMatchObject({
        from: "José Núñez <jose@example.es>",
        to: [first],
        cc: [second],
        subject: "Größe: 日本語のテスト ✓",
        text: "Grüße aus Köln — ça va? 日本",
        html: '<p>Grüße <img src="cid:logo@example.es"></p>',
      });
      expect(message.attachments.map(({ filename, content_type, size }) => [filename, content_type, size])).toEqual([
        // In the order of the MIME tree: the inline image sits beside the html, before the attachment.
        ["logo.png", "image/png", png.length],
        ["naïve.pdf", "application/pdf", pdf.length],
      ]);
      const attachmentId = message.attachments[1]?.attachment_id ?? "";
      const download = await fetch(
        `${t.server.inbox.url}/v0/inboxes/${encodeURIComponent(inbox)}/messages/${encodeURIComponent(message.message_id)}/attachments/${attachmentId}`,
        { headers: { Authorization: `Bearer ${t.server.inbox.apiKey}` } },
      );
      expect(Buffer.from(await download.arrayBuffer())).toEqual(pdf);
      expect(await rawSource(inbox, message.message_id)).toEqual(raw);
    }
  });

  it("gives the same mail received again by another inbox its attachments, in the record and in the event", async () => {
    const first = await newInbox("again-first");
    const second = await newInbox("again-second");
    const receiver = await startWebhookReceiver();
    try {
      expectData(
        await t.inbox.POST("/v0/webhooks", {
          body: { url: receiver.url, event_types: ["message.received"], inbox_ids: [first, second] },
        }),
      );
      const mail = {
        from: "ada@example.com",
        subject: "Twice",
        text: "The same message, two deliveries.\r\n",
        messageId: "<twice-1@example.com>",
        attachments: [{ filename: "notes.txt", content: "one attachment", contentType: "text/plain" }],
      };
      for (const inbox of [first, second]) {
        const sent = await swaksData(await compose({ ...mail, to: inbox }), "ada@example.com", [inbox]);
        expect(sent.exitCode, sent.output).toBe(0);
      }
      const stored = [await onlyMessage(first), await onlyMessage(second)];
      // Each inbox keeps the attachments its own arrival brought.
      for (const message of stored) {
        expect(message?.attachments.map(({ filename, size }) => [filename, size])).toEqual([["notes.txt", 14]]);
      }

      const deliveries = await receiver.waitFor(2);
      const events = deliveries.map(
        (delivery) => JSON.parse(delivery.body) as { message: { inbox_id: string; attachments: unknown[] } },
      );
      for (const message of stored) {
        const event = events.find((candidate) => candidate.message.inbox_id === message?.inbox_id);
        expect(event?.message.attachments, message?.inbox_id).toEqual(message?.attachments);
      }
    } finally {
      await receiver.close();
    }
  });

  it("answers the source of received mail exactly as it arrived, a Bcc field included", async () => {
    const inbox = await newInbox("bcc-in");
    const raw = Buffer.from(
      [
        "From: ada@example.com",
        `To: ${inbox}`,
        "Bcc: quiet@example.com",
        "Subject: Kept as sent",
        "Message-ID: <bcc-in-1@example.com>",
        "",
        "The sender's client left its Bcc field in.",
        "",
      ].join("\r\n"),
    );
    const sent = await swaksData(raw, "ada@example.com", [inbox]);
    expect(sent.exitCode, sent.output).toBe(0);
    const message = await onlyMessage(inbox);
    expect(await rawSource(inbox, message.message_id)).toEqual(raw);
  });

  it("joins a reply to the thread of the message it answers", async () => {
    const inbox = await newInbox("reply-in");
    const sent = expectData(
      await t.inbox.POST("/v0/inboxes/{inbox_id}/messages", {
        params: { path: { inbox_id: inbox } },
        body: { to: "grace@example.com", subject: "Question", text: "Any news?" },
      }),
    );
    const raw = await compose({
      from: "grace@example.com",
      to: inbox,
      subject: "Re: Question",
      text: "Yes.",
      inReplyTo: sent.message_id,
      references: [sent.message_id],
    });
    expect((await swaksData(raw, "grace@example.com", [inbox])).exitCode).toBe(0);
    const thread = expectData(
      await t.inbox.GET("/v0/inboxes/{inbox_id}/threads/{thread_id}", {
        params: { path: { inbox_id: inbox, thread_id: sent.thread_id } },
      }),
    );
    expect(thread.messages.map((message) => message.subject)).toEqual(["Question", "Re: Question"]);
    expect(thread.messages[1]?.in_reply_to).toBe(sent.message_id);
  });

  it("refuses an address that is no inbox here with 550 5.1.1, and stores nothing", async () => {
    const inbox = await newInbox("known-in");
    const refused = await swaks(["--from", "ada@example.com", "--to", "nobody@pigeonhole.test", "--body", "hi"]);
    expect(refused.output).toMatch(/<\*\* {1,2}550 5\.1\.1/);
    expect(refused.exitCode).not.toBe(0);
    const otherDomain = await swaks(["--from", "ada@example.com", "--to", "known-in@example.org", "--body", "hi"]);
    expect(otherDomain.output).toMatch(/<\*\* {1,2}550 5\.1\.1/);
    const list = expectData(
      await t.inbox.GET("/v0/inboxes/{inbox_id}/messages", { params: { path: { inbox_id: inbox } } }),
    );
    expect(list.messages).toHaveLength(0);
  });

  it("refuses a message over the size limit with 552, and stores nothing", async () => {
    const inbox = await newInbox("big-in");
    const raw = await compose({
      from: "ada@example.com",
      to: inbox,
      subject: "Big",
      text: "x".repeat(MAX_SIZE + 1024),
    });
    const refused = await swaksData(raw, "ada@example.com", [inbox]);
    expect(refused.output).toMatch(/<\*\* {1,2}552 /);
    const list = expectData(
      await t.inbox.GET("/v0/inboxes/{inbox_id}/messages", { params: { path: { inbox_id: inbox } } }),
    );
    expect(list.messages).toHaveLength(0);
  });
});
