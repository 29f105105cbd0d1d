import { AgentMailError } from "agentmail";
import { describe, expect, it } from "vitest";
import { agentMailServerForFile } from "./agentmail-server.ts";

const served = agentMailServerForFile();

const base64 = (text: string) => Buffer.from(text).toString("base64");

/** Two inboxes of the development pod; mail between them is delivered at once. */
async function twoInboxes(name: string) {
  const sender = await served.sdk.inboxes.create({ username: `${name}-from`, displayName: "Sender" });
  const recipient = await served.sdk.inboxes.create({ username: `${name}-to` });
  return { sender: sender.inboxId, recipient: recipient.inboxId };
}

/** The recipient's copy of a message just sent to it. */
async function received(inboxId: string, messageId: string) {
  return served.sdk.inboxes.messages.get(inboxId, messageId);
}

const statusOf = async (call: Promise<unknown>): Promise<number | undefined> => {
  const caught = await call.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(caught).toBeInstanceOf(AgentMailError);
  return (caught as AgentMailError).statusCode;
};

describe("inboxes.messages through the official agentmail SDK", () => {
  it("sends on AgentMail's path with the same Idempotency-Key rules as the seed's", async () => {
    const { sender, recipient } = await twoInboxes("send-path");
    const sent = await served.sdk.inboxes.messages.send(
      sender,
      { to: [recipient], subject: "Hello", text: "Over the send path" },
      { idempotencyKey: "send-path-1" },
    );
    expect(sent.messageId).toMatch(/^<.+@.+>$/);
    expect(sent.threadId).toMatch(/^thd_/);
    const again = await served.sdk.inboxes.messages.send(
      sender,
      { to: [recipient], subject: "Hello", text: "Over the send path" },
      { idempotencyKey: "send-path-1" },
    );
    expect(again).toEqual(sent);
    expect(
      await statusOf(
        served.sdk.inboxes.messages.send(
          sender,
          { to: [recipient], text: "Another body" },
          { idempotencyKey: "send-path-1" },
        ),
      ),
    ).toBe(409);
    const copy = await received(recipient, sent.messageId);
    expect(copy).toMatchObject({ subject: "Hello", text: "Over the send path" });
    expect(copy.labels).toContain("received");
    const tooMany = Array.from({ length: 51 }, (_, index) => `someone${index}@example.com`);
    expect(await statusOf(served.sdk.inboxes.messages.send(sender, { to: tooMany, text: "x" }))).toBe(400);
  });

  it("replies, replies to all and forwards with the original quoted and its attachments carried", async () => {
    const { sender, recipient } = await twoInboxes("answers");
    const sent = await served.sdk.inboxes.messages.send(sender, {
      to: [recipient],
      cc: ["carol@example.com"],
      subject: "Quarterly report",
      text: "The report is attached.",
      html: "<p>The report is attached.</p>",
      attachments: [{ filename: "report.txt", content: base64("numbers"), contentType: "text/plain" }],
    });

    const reply = await served.sdk.inboxes.messages.reply(recipient, sent.messageId, { text: "Thanks!" });
    expect(reply.threadId).not.toBe("");
    const replyCopy = await served.sdk.inboxes.messages.get(recipient, reply.messageId);
    expect(replyCopy).toMatchObject({ subject: "Re: Quarterly report", to: [sender], inReplyTo: sent.messageId });

    const all = await served.sdk.inboxes.messages.replyAll(recipient, sent.messageId, { text: "Thanks, all!" });
    const allCopy = await served.sdk.inboxes.messages.get(recipient, all.messageId);
    expect(allCopy.to).toEqual([sender]);
    expect(allCopy.cc).toEqual(["carol@example.com"]);
    expect(allCopy.threadId).toBe(replyCopy.threadId);

    const forward = await served.sdk.inboxes.messages.forward(recipient, sent.messageId, {
      to: ["dave@example.com"],
      text: "Dave, see below.",
    });
    const forwarded = await served.sdk.inboxes.messages.get(recipient, forward.messageId);
    expect(forwarded.subject).toBe("Fwd: Quarterly report");
    expect(forwarded.to).toEqual(["dave@example.com"]);
    expect(forwarded.text).toContain("Dave, see below.");
    expect(forwarded.text).toContain("---------- Forwarded message ---------");
    expect(forwarded.text).toContain("The report is attached.");
    expect(forwarded.html).toContain("<blockquote><p>The report is attached.</p></blockquote>");
    expect(forwarded.attachments?.map((attachment) => attachment.filename)).toEqual(["report.txt"]);
    expect(forwarded.threadId).not.toBe(replyCopy.threadId);
  });

  it("relabels one message, several at once, and reads several at once", async () => {
    const { sender, recipient } = await twoInboxes("labels");
    const first = await served.sdk.inboxes.messages.send(sender, { to: [recipient], subject: "One", text: "1" });
    const second = await served.sdk.inboxes.messages.send(sender, { to: [recipient], subject: "Two", text: "2" });

    const updated = await served.sdk.inboxes.messages.update(recipient, first.messageId, {
      addLabels: ["important"],
      removeLabels: ["unread"],
    });
    expect(updated.messageId).toBe(first.messageId);
    expect(updated.labels).toEqual(["received", "important"]);

    const batch = await served.sdk.inboxes.messages.batchUpdate(recipient, {
      messageIds: [first.messageId, second.messageId, "<missing@example.com>"],
      addLabels: ["archived"],
    });
    expect(batch.limit).toBe(3);
    expect(batch.count).toBe(2);
    expect(batch.updates.map((update) => update.labels.includes("archived"))).toEqual([true, true]);

    const got = await served.sdk.inboxes.messages.batchGet(recipient, {
      messageIds: [second.messageId, "<missing@example.com>", first.messageId],
    });
    expect(got).toMatchObject({ limit: 3, count: 2 });
    expect(got.messages.map((message) => message.subject)).toEqual(["Two", "One"]);

    const fiftyOne = Array.from({ length: 51 }, (_, index) => `<m${index}@example.com>`);
    expect(await statusOf(served.sdk.inboxes.messages.batchGet(recipient, { messageIds: fiftyOne }))).toBe(400);
    expect(
      await statusOf(served.sdk.inboxes.messages.batchUpdate(recipient, { messageIds: fiftyOne, addLabels: ["x"] })),
    ).toBe(400);
    expect(
      await statusOf(
        served.sdk.inboxes.messages.batchUpdate(recipient, {
          messageIds: [first.messageId],
          removeLabels: ["received"],
        }),
      ),
    ).toBe(400);
    // A refused batch changes nothing.
    expect((await received(recipient, first.messageId)).labels).toContain("received");
  });

  it("deletes a message: the thread keeps the right count, and goes with its last message", async () => {
    const { sender, recipient } = await twoInboxes("delete");
    const sent = await served.sdk.inboxes.messages.send(sender, { to: [recipient], subject: "Gone soon", text: "a" });
    const reply = await served.sdk.inboxes.messages.reply(recipient, sent.messageId, { text: "b" });
    const thread = await served.sdk.inboxes.threads.get(recipient, reply.threadId);
    expect(thread.messageCount).toBe(2);

    await served.sdk.inboxes.messages.delete(recipient, reply.messageId);
    expect(await statusOf(served.sdk.inboxes.messages.get(recipient, reply.messageId))).toBe(404);
    const left = await served.sdk.inboxes.threads.get(recipient, reply.threadId);
    expect(left.messageCount).toBe(1);
    expect(left.messages.map((message) => message.messageId)).toEqual([sent.messageId]);
    expect(left.labels).toEqual(["received", "unread"]);
    // The sender's copy is the sender's: it stays.
    expect((await served.sdk.inboxes.messages.get(sender, sent.messageId)).subject).toBe("Gone soon");

    await served.sdk.inboxes.messages.delete(recipient, sent.messageId);
    expect(await statusOf(served.sdk.inboxes.threads.get(recipient, reply.threadId))).toBe(404);
    expect(await statusOf(served.sdk.inboxes.messages.delete(recipient, sent.messageId))).toBe(404);
  });

  it("answers 404 for another pod's messages, and leaves them untouched", async () => {
    const { sender, recipient } = await twoInboxes("hostile");
    const sent = await served.sdk.inboxes.messages.send(sender, { to: [recipient], subject: "Mine", text: "secret" });
    const { sdk: other } = await served.newPod();
    const theirs = await other.inboxes.create({ username: "hostile-other" });

    expect(await statusOf(other.inboxes.messages.get(recipient, sent.messageId))).toBe(404);
    expect(await statusOf(other.inboxes.messages.delete(recipient, sent.messageId))).toBe(404);
    expect(await statusOf(other.inboxes.messages.forward(recipient, sent.messageId, { to: [theirs.inboxId] }))).toBe(
      404,
    );
    expect(await statusOf(other.inboxes.messages.replyAll(recipient, sent.messageId, { text: "x" }))).toBe(404);
    expect(await statusOf(other.inboxes.messages.batchGet(recipient, { messageIds: [sent.messageId] }))).toBe(404);
    // Their own inbox holds no such message: the ids are left out, nothing else is reached.
    const viaOwn = await other.inboxes.messages.batchGet(theirs.inboxId, { messageIds: [sent.messageId] });
    expect(viaOwn.count).toBe(0);
    const relabel = await other.inboxes.messages.batchUpdate(theirs.inboxId, {
      messageIds: [sent.messageId],
      addLabels: ["stolen"],
    });
    expect(relabel.count).toBe(0);
    expect(await statusOf(other.inboxes.messages.delete(theirs.inboxId, sent.messageId))).toBe(404);
    expect(
      await statusOf(other.inboxes.messages.forward(theirs.inboxId, sent.messageId, { to: [theirs.inboxId] })),
    ).toBe(404);
    const still = await received(recipient, sent.messageId);
    expect(still.labels).not.toContain("stolen");
  });
});
