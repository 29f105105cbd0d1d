import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { InboxClient, TestServer } from "../../test/support/test-server.ts";
import { expectData, startTestServer } from "../../test/support/test-server.ts";

let t: TestServer;
let stranger: InboxClient;
beforeAll(async () => {
  t = await startTestServer();
  stranger = await t.newInboxTenant();
});
afterAll(() => t.server.close());

async function newInbox(username: string) {
  return expectData(await t.inbox.POST("/v0/inboxes", { body: { username } })).inbox_id;
}

function reply(client: InboxClient, inboxId: string, messageId: string, body: object, key?: string) {
  return client.POST("/v0/inboxes/{inbox_id}/messages/{message_id}/reply", {
    params: { path: { inbox_id: inboxId, message_id: messageId }, header: key ? { "Idempotency-Key": key } : {} },
    body,
  });
}

async function message(inboxId: string, messageId: string) {
  return expectData(
    await t.inbox.GET("/v0/inboxes/{inbox_id}/messages/{message_id}", {
      params: { path: { inbox_id: inboxId, message_id: messageId } },
    }),
  );
}

describe("replies", () => {
  it("answers the sender, with Re: once and the threading headers, in both inboxes' threads", async () => {
    const ada = await newInbox("reply-ada");
    const support = await newInbox("reply-support");
    const question = expectData(
      await t.inbox.POST("/v0/inboxes/{inbox_id}/messages", {
        params: { path: { inbox_id: ada } },
        body: { to: support, cc: ["grace@example.com"], subject: "Invoice", text: "Where is it?" },
      }),
    );
    const answer = expectData(
      await reply(t.inbox, support, question.message_id, {
        text: "Attached.",
        labels: ["billing"],
        attachments: [{ filename: "invoice.txt", content: "UGFpZA==", content_type: "text/plain" }],
      }),
    );
    const sent = await message(support, answer.message_id);
    expect(sent).toMatchObject({
      to: [ada],
      cc: [],
      subject: "Re: Invoice",
      text: "Attached.",
      labels: ["sent", "billing"],
      in_reply_to: question.message_id,
      references: [question.message_id],
      attachments: [expect.objectContaining({ filename: "invoice.txt", size: 4 })],
    });
    const receivedQuestion = await message(support, question.message_id);
    expect(sent.thread_id).toBe(receivedQuestion.thread_id);
    const delivered = await message(ada, answer.message_id);
    expect(delivered.thread_id).toBe(question.thread_id);
    expect(delivered.labels).toEqual(["received", "unread"]);

    // Replying to the reply: Re: stays single, References grow by one.
    const again = expectData(await reply(t.inbox, ada, answer.message_id, { text: "Thanks" }));
    expect(await message(ada, again.message_id)).toMatchObject({
      to: [support],
      subject: "Re: Invoice",
      in_reply_to: answer.message_id,
      references: [question.message_id, answer.message_id],
      thread_id: question.thread_id,
    });
    const raw = await t.inbox.GET("/v0/inboxes/{inbox_id}/messages/{message_id}/raw", {
      params: { path: { inbox_id: ada, message_id: again.message_id } },
      parseAs: "text",
    });
    // Header fields unfolded, as a mail reader reads them.
    const source = raw.data?.replace(/\r\n[ \t]+/g, " ");
    expect(source).toContain(`In-Reply-To: ${answer.message_id}\r\n`);
    expect(source).toContain(`References: ${question.message_id} ${answer.message_id}\r\n`);
    expect(source).toContain("Subject: Re: Invoice\r\n");
  });

  it("follows reply_to, answers its own sent mail to the original to, and reply_all never names the inbox", async () => {
    const me = await newInbox("reply-me");
    const other = await newInbox("reply-other");
    const incoming = expectData(
      await t.inbox.POST("/v0/inboxes/{inbox_id}/messages", {
        params: { path: { inbox_id: other } },
        body: {
          to: ["REPLY-ME@pigeonhole.test", "bob@example.com"],
          cc: ["Carol@example.com", "bob@example.com", other],
          reply_to: "desk@example.com",
          subject: "RE: plans",
        },
      }),
    );
    const toDesk = expectData(await reply(t.inbox, me, incoming.message_id, { text: "ok" }));
    expect(await message(me, toDesk.message_id)).toMatchObject({
      to: ["desk@example.com"],
      cc: [],
      subject: "RE: plans",
    });
    const all = expectData(await reply(t.inbox, me, incoming.message_id, { text: "ok", reply_all: true }));
    expect(await message(me, all.message_id)).toMatchObject({
      to: ["desk@example.com", "bob@example.com"],
      cc: ["Carol@example.com", other],
    });

    const mine = expectData(
      await t.inbox.POST("/v0/inboxes/{inbox_id}/messages", {
        params: { path: { inbox_id: me } },
        body: { to: ["ada@example.com"], cc: "grace@example.com", bcc: "hidden@example.com", subject: "Hello" },
      }),
    );
    const followUp = expectData(await reply(t.inbox, me, mine.message_id, { text: "again", reply_all: true }));
    expect(await message(me, followUp.message_id)).toMatchObject({
      to: ["ada@example.com"],
      cc: ["grace@example.com"],
      bcc: [],
      thread_id: mine.thread_id,
    });

    const toSelf = expectData(
      await t.inbox.POST("/v0/inboxes/{inbox_id}/messages", {
        params: { path: { inbox_id: me } },
        body: { to: me, subject: "Note" },
      }),
    );
    const nobody = await reply(t.inbox, me, toSelf.message_id, { text: "?" });
    expect(nobody.response.status).toBe(400);
    expect(nobody.error?.error.details).toEqual({ field: "message_id", code: "INVALID_VALUE" });
  });

  it("honours Idempotency-Key as a send does, and answers 404 across keys", async () => {
    const me = await newInbox("reply-once");
    const incoming = expectData(
      await t.inbox.POST("/v0/inboxes/{inbox_id}/messages", {
        params: { path: { inbox_id: me } },
        body: { to: "ada@example.com", subject: "Once" },
      }),
    );
    const first = expectData(await reply(t.inbox, me, incoming.message_id, { text: "one" }, "reply-key"));
    const repeated = expectData(await reply(t.inbox, me, incoming.message_id, { text: "one" }, "reply-key"));
    expect(repeated).toEqual(first);
    const reused = await reply(t.inbox, me, incoming.message_id, { text: "two" }, "reply-key");
    expect(reused.response.status).toBe(409);
    expect(reused.error?.error.details.code).toBe("IDEMPOTENCY_KEY_REUSED");
    const listed = expectData(
      await t.inbox.GET("/v0/inboxes/{inbox_id}/messages", { params: { path: { inbox_id: me } } }),
    );
    expect(listed.messages.map((m) => m.message_id)).toEqual([first.message_id, incoming.message_id]);

    expect((await reply(stranger, me, incoming.message_id, { text: "x" })).response.status).toBe(404);
    expect((await reply(t.inbox, me, "<missing@x>", { text: "x" })).response.status).toBe(404);
    expect((await reply(t.inbox, me, incoming.message_id, { text: "x", cc: "a@b.c" })).response.status).toBe(400);
  });
});
