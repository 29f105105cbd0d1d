import { AgentMailError } from "agentmail";
import { describe, expect, it } from "vitest";
import { agentMailServerForFile } from "./agentmail-server.ts";

const served = agentMailServerForFile();

const statusOf = async (call: Promise<unknown>): Promise<number | undefined> => {
  const caught = await call.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(caught).toBeInstanceOf(AgentMailError);
  return (caught as AgentMailError).statusCode;
};

/** A conversation of two messages in `recipient`'s inbox: a received one and the reply to it. */
async function conversation(name: string) {
  const sender = (await served.sdk.inboxes.create({ username: `${name}-from` })).inboxId;
  const recipient = (await served.sdk.inboxes.create({ username: `${name}-to` })).inboxId;
  const sent = await served.sdk.inboxes.messages.send(sender, { to: [recipient], subject: name, text: "first" });
  const reply = await served.sdk.inboxes.messages.reply(recipient, sent.messageId, { text: "second" });
  return { sender, recipient, sent, reply, threadId: reply.threadId };
}

describe("threads through the official agentmail SDK", () => {
  it("relabels every message of a thread", async () => {
    const { recipient, sent, reply, threadId } = await conversation("thread-labels");
    const updated = await served.sdk.inboxes.threads.update(recipient, threadId, {
      addLabels: ["important"],
      removeLabels: ["unread"],
    });
    expect(updated.threadId).toBe(threadId);
    expect(updated.labels).toEqual(["received", "important", "sent"]);
    expect((await served.sdk.inboxes.messages.get(recipient, sent.messageId)).labels).toEqual([
      "received",
      "important",
    ]);
    expect((await served.sdk.inboxes.messages.get(recipient, reply.messageId)).labels).toEqual(["sent", "important"]);
    expect(await statusOf(served.sdk.inboxes.threads.update(recipient, threadId, { addLabels: ["sent"] }))).toBe(400);
  });

  it("deletes a thread with its messages, leaving other inboxes' copies", async () => {
    const { sender, recipient, sent, threadId } = await conversation("thread-delete");
    await served.sdk.inboxes.threads.delete(recipient, threadId);
    expect(await statusOf(served.sdk.inboxes.threads.get(recipient, threadId))).toBe(404);
    expect(await statusOf(served.sdk.inboxes.messages.get(recipient, sent.messageId))).toBe(404);
    const listed = await served.sdk.inboxes.threads.list(recipient);
    expect(listed.threads.map((thread) => thread.threadId)).not.toContain(threadId);
    expect((await served.sdk.inboxes.messages.get(sender, sent.messageId)).text).toBe("first");
    expect(await statusOf(served.sdk.inboxes.threads.delete(recipient, threadId))).toBe(404);
  });

  it("lists and gets the threads of every inbox of the pod, and none of another pod's", async () => {
    const { sdk: own } = await served.newPod();
    const first = (await own.inboxes.create({ username: "pod-threads-a" })).inboxId;
    const second = (await own.inboxes.create({ username: "pod-threads-b" })).inboxId;
    const a = await own.inboxes.messages.send(first, { to: ["x@example.com"], subject: "A", text: "a" });
    const b = await own.inboxes.messages.send(second, { to: ["y@example.com"], subject: "B", text: "b" });
    const c = await own.inboxes.messages.send(second, { to: ["z@example.com"], subject: "C", text: "c" });

    const firstPage = await own.threads.list({ limit: 2 });
    expect(firstPage.threads.map((thread) => thread.threadId)).toEqual([c.threadId, b.threadId]);
    const secondPage = await own.threads.list({ limit: 2, pageToken: firstPage.nextPageToken });
    expect(secondPage.threads.map((thread) => thread.threadId)).toEqual([a.threadId]);
    expect(secondPage.nextPageToken ?? null).toBeNull();

    const got = await own.threads.get(a.threadId);
    expect(got).toMatchObject({ threadId: a.threadId, inboxId: first, subject: "A" });
    expect(got.messages.map((message) => message.messageId)).toEqual([a.messageId]);

    // Another pod's threads: not listed, and 404 by id, everywhere.
    const { sdk: other } = await served.newPod();
    expect((await other.threads.list()).threads).toEqual([]);
    expect(await statusOf(other.threads.get(a.threadId))).toBe(404);
    expect(await statusOf(other.inboxes.threads.update(first, a.threadId, { addLabels: ["x"] }))).toBe(404);
    expect(await statusOf(other.inboxes.threads.delete(first, a.threadId))).toBe(404);
    const theirs = (await other.inboxes.create({ username: "pod-threads-other" })).inboxId;
    expect(await statusOf(other.inboxes.threads.update(theirs, a.threadId, { addLabels: ["x"] }))).toBe(404);
    expect(await statusOf(other.inboxes.threads.delete(theirs, a.threadId))).toBe(404);
    expect((await own.threads.get(a.threadId)).messageCount).toBe(1);
  });
});
