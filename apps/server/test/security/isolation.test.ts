import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { swaks } from "@pigeonhole/mail-testing";
import MailComposer from "nodemailer/lib/mail-composer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { InboxClient, TestServer } from "../support/test-server.ts";
import { expectData, startTestServer } from "../support/test-server.ts";

// One pod never reaches another's mail through an id a sender chooses: a Message-ID, an In-Reply-To, a Reference.
// Mail comes in through Debian's swaks, a real SMTP client, over loopback; pods read it back over HTTP.

let t: TestServer;
let workDir: string;
let runs = 0;
beforeAll(async () => {
  t = await startTestServer({ smtpPort: 0 });
  workDir = await mkdtemp(join(tmpdir(), "isolation-"));
});
afterAll(async () => {
  await t.server.close();
  await rm(workDir, { recursive: true, force: true });
});

/** A pod of its own, with one inbox. */
async function newPod(name: string): Promise<{ client: InboxClient; inbox: string }> {
  const client = await t.newInboxTenant();
  const inbox = expectData(await client.POST("/v0/inboxes", { body: { username: `${name}-${++runs}` } })).inbox_id;
  return { client, inbox };
}

/** A message built by Nodemailer, ending in CRLF as SMTP data does. */
async function compose(mail: ConstructorParameters<typeof MailComposer>[0]): Promise<Buffer> {
  const raw = await new MailComposer({ ...mail, newline: "\r\n" }).compile().build();
  return raw.subarray(-2).toString() === "\r\n" ? raw : Buffer.concat([raw, Buffer.from("\r\n")]);
}

/** Sends `raw` over SMTP to `to`, exactly these bytes (swaks adds the final CRLF itself), and expects 250. */
async function deliver(raw: Buffer, to: string): Promise<void> {
  const file = join(workDir, `${++runs}.eml`);
  await writeFile(file, raw.subarray(0, -2));
  const sent = await swaks([
    "--server",
    `127.0.0.1:${t.server.smtp?.port}`,
    "--timeout",
    "20",
    "--from",
    "sender@partner.example",
    "--to",
    to,
    "--data",
    `@${file}`,
  ]);
  expect(sent.exitCode, sent.output).toBe(0);
}

async function messagesOf({ client, inbox }: { client: InboxClient; inbox: string }) {
  return expectData(await client.GET("/v0/inboxes/{inbox_id}/messages", { params: { path: { inbox_id: inbox } } }))
    .messages;
}

async function messageOf({ client, inbox }: { client: InboxClient; inbox: string }, messageId: string) {
  return expectData(
    await client.GET("/v0/inboxes/{inbox_id}/messages/{message_id}", {
      params: { path: { inbox_id: inbox, message_id: messageId } },
    }),
  );
}

async function rawOf({ client, inbox }: { client: InboxClient; inbox: string }, messageId: string) {
  const { data, response } = await client.GET("/v0/inboxes/{inbox_id}/messages/{message_id}/raw", {
    params: { path: { inbox_id: inbox, message_id: messageId } },
    parseAs: "arrayBuffer",
  });
  expect(response.status).toBe(200);
  return Buffer.from(data ?? new ArrayBuffer(0));
}

async function download(
  { client, inbox }: { client: InboxClient; inbox: string },
  messageId: string,
  attachmentId: string,
) {
  const { data, response } = await client.GET(
    "/v0/inboxes/{inbox_id}/messages/{message_id}/attachments/{attachment_id}",
    {
      params: { path: { inbox_id: inbox, message_id: messageId, attachment_id: attachmentId } },
      parseAs: "arrayBuffer",
    },
  );
  return { status: response.status, bytes: Buffer.from(data ?? new ArrayBuffer(0)) };
}

const CONTRACT = Buffer.from("%PDF-1.4 the partner's signed contract \u0000\u00ff");

/** The genuine mail from a partner to the victim's inbox, with the contract attached. */
const genuineMail = (messageId: string, to: string) =>
  compose({
    from: "Partner <sender@partner.example>",
    to,
    subject: "The contract",
    text: "Signed copy attached.",
    messageId,
    attachments: [{ filename: "contract.pdf", content: CONTRACT, contentType: "application/pdf" }],
  });

/** What an attacker mails its own inbox under the same Message-ID. */
const plantedMail = (messageId: string, to: string, attachments: { filename: string; content: Buffer }[] = []) =>
  compose({
    from: "attacker@partner.example",
    to,
    subject: "Nothing to see",
    text: "Planted under someone else's Message-ID.",
    messageId,
    attachments,
  });

describe("a Message-ID a sender chooses", () => {
  it("gives an inbox that receives it after another pod nothing of that pod's copy: no attachment, no source", async () => {
    const victim = await newPod("victim");
    const attacker = await newPod("attacker");
    const messageId = `<contract-${runs}@partner.example>`;
    const genuine = await genuineMail(messageId, victim.inbox);
    await deliver(genuine, victim.inbox);
    const victimCopy = await messageOf(victim, messageId);
    const contractId = victimCopy.attachments[0]?.attachment_id ?? "";
    expect(victimCopy.attachments.map((attachment) => attachment.filename)).toEqual(["contract.pdf"]);

    const planted = await plantedMail(messageId, attacker.inbox);
    await deliver(planted, attacker.inbox);
    const attackerCopy = await messageOf(attacker, messageId);
    expect(attackerCopy.attachments).toEqual([]);
    expect((await messagesOf(attacker)).map((message) => message.attachments)).toEqual([[]]);
    expect(await download(attacker, messageId, contractId)).toMatchObject({ status: 404 });
    const attackerRaw = await rawOf(attacker, messageId);
    expect(attackerRaw).toEqual(planted);
    expect(attackerRaw.includes(CONTRACT.toString("base64").slice(0, 20))).toBe(false);

    // The victim's copy is untouched, and the same mail received again adds no second copy.
    await deliver(genuine, victim.inbox);
    expect(await messagesOf(victim)).toHaveLength(1);
    expect(await rawOf(victim, messageId)).toEqual(genuine);
    expect(await download(victim, messageId, contractId)).toEqual({ status: 200, bytes: CONTRACT });
  });

  it("gives the genuine mail its own attachments and source when another pod planted the id first", async () => {
    const victim = await newPod("victim");
    const attacker = await newPod("attacker");
    const messageId = `<planted-${runs}@partner.example>`;
    const forged = Buffer.from("%PDF-1.4 a forged contract");
    const planted = await plantedMail(messageId, attacker.inbox, [{ filename: "contract.pdf", content: forged }]);
    await deliver(planted, attacker.inbox);

    const genuine = await genuineMail(messageId, victim.inbox);
    await deliver(genuine, victim.inbox);
    const victimCopy = await messageOf(victim, messageId);
    expect(victimCopy).toMatchObject({ subject: "The contract", text: "Signed copy attached." });
    expect(victimCopy.attachments.map(({ filename, size }) => ({ filename, size }))).toEqual([
      { filename: "contract.pdf", size: CONTRACT.length },
    ]);
    expect(await download(victim, messageId, victimCopy.attachments[0]?.attachment_id ?? "")).toEqual({
      status: 200,
      bytes: CONTRACT,
    });
    expect(await rawOf(victim, messageId)).toEqual(genuine);

    // Nor does the attacker's copy turn into the genuine one.
    const attackerCopy = await messageOf(attacker, messageId);
    expect(await download(attacker, messageId, attackerCopy.attachments[0]?.attachment_id ?? "")).toEqual({
      status: 200,
      bytes: forged,
    });
    expect(await download(attacker, messageId, victimCopy.attachments[0]?.attachment_id ?? "")).toMatchObject({
      status: 404,
    });
    expect(await rawOf(attacker, messageId)).toEqual(planted);
  });
});

describe("another pod's message ids in In-Reply-To and References", () => {
  it("join no thread of that pod and reveal nothing of it", async () => {
    const victim = await newPod("victim");
    const attacker = await newPod("attacker");
    const messageId = `<thread-${runs}@partner.example>`;
    await deliver(await genuineMail(messageId, victim.inbox), victim.inbox);
    const victimCopy = await messageOf(victim, messageId);

    // A reply over SMTP into the attacker's own inbox, and one sent over HTTP to itself, both naming the victim's id.
    await deliver(
      await compose({
        from: "attacker@partner.example",
        to: attacker.inbox,
        subject: "Re: The contract",
        text: "Which thread am I in?",
        inReplyTo: messageId,
        references: [messageId],
      }),
      attacker.inbox,
    );
    const sent = expectData(
      await attacker.client.POST("/v0/inboxes/{inbox_id}/messages", {
        params: { path: { inbox_id: attacker.inbox } },
        body: {
          to: attacker.inbox,
          subject: "Re: The contract",
          text: "And this one?",
          headers: { "In-Reply-To": messageId, References: messageId },
        },
      }),
    );
    const attackerThreads = expectData(
      await attacker.client.GET("/v0/inboxes/{inbox_id}/threads", { params: { path: { inbox_id: attacker.inbox } } }),
    ).threads;
    expect(attackerThreads).toHaveLength(2);
    for (const thread of attackerThreads) {
      expect(thread).toMatchObject({ inbox_id: attacker.inbox, message_count: 1 });
      expect(thread.thread_id).not.toBe(victimCopy.thread_id);
      expect(thread.participants).not.toContain(victim.inbox);
    }
    expect(attackerThreads.map((thread) => thread.thread_id)).toContain(sent.thread_id);

    const victimThread = expectData(
      await victim.client.GET("/v0/inboxes/{inbox_id}/threads/{thread_id}", {
        params: { path: { inbox_id: victim.inbox, thread_id: victimCopy.thread_id } },
      }),
    );
    expect(victimThread.message_count).toBe(1);
    expect(victimThread.messages.map((message) => message.message_id)).toEqual([messageId]);

    // The victim's ids answer 404 through the attacker's inbox, as ids that do not exist.
    const thread = await attacker.client.GET("/v0/inboxes/{inbox_id}/threads/{thread_id}", {
      params: { path: { inbox_id: attacker.inbox, thread_id: victimCopy.thread_id } },
    });
    expect(thread.response.status).toBe(404);
    const reply = await attacker.client.POST("/v0/inboxes/{inbox_id}/messages/{message_id}/reply", {
      params: { path: { inbox_id: attacker.inbox, message_id: messageId } },
      body: { text: "Replying to what I cannot see." },
    });
    expect(reply.response.status).toBe(404);
    const raw = await attacker.client.GET("/v0/inboxes/{inbox_id}/messages/{message_id}/raw", {
      params: { path: { inbox_id: attacker.inbox, message_id: messageId } },
      parseAs: "arrayBuffer",
    });
    expect(raw.response.status).toBe(404);
  });
});
