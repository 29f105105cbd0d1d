// Every field of AgentMail's thread records, read by the official SDK: the values after sends, replies and deletes,
// the same in each place a thread appears, and each record whole by the SDK's own schemas.
import type { AgentMail, AgentMailClient } from "agentmail";
import * as serialization from "agentmail/serialization";
import { describe, expect, it } from "vitest";
import { agentMailServerForFile } from "./agentmail-server.ts";

const served = agentMailServerForFile();

// The SDK reads answers leniently (a missing field is left undefined); writing a record back through its schema
// checks it strictly: every required field there, each of the type the SDK declares.
const STRICT = { unrecognizedObjectKeys: "passthrough" } as const;

/** What every view of one thread must say, from the messages the SDK reads. */
interface Expected {
  inboxId: string;
  threadId: string;
  senders: string[];
  recipients: string[];
  messages: AgentMail.Message[];
  sentTimestamp: Date | undefined;
  receivedTimestamp: Date | undefined;
  /** When the thread began: its first message's creation, which deleting that message leaves as it was. */
  createdAt: Date | undefined;
}

function expectThreadFields(thread: AgentMail.ThreadItem, expected: Expected): void {
  const newest = expected.messages.at(-1);
  expect(newest).toBeDefined();
  expect(thread).toMatchObject({
    inboxId: expected.inboxId,
    threadId: expected.threadId,
    senders: expected.senders,
    recipients: expected.recipients,
    lastMessageId: newest?.messageId,
    messageCount: expected.messages.length,
    size: expected.messages.reduce((sum, message) => sum + message.size, 0),
    preview: newest?.preview,
    timestamp: newest?.timestamp,
  });
  expect(thread.sentTimestamp).toEqual(expected.sentTimestamp);
  expect(thread.receivedTimestamp).toEqual(expected.receivedTimestamp);
  expect(thread.createdAt).toEqual(expected.createdAt);
  expect(thread.updatedAt).toBeInstanceOf(Date);
  expect(thread.labels.length).toBeGreaterThan(0);
}

/** The thread as each operation that shows it answers, all checked against `expected`. */
async function expectEverywhere(sdk: AgentMailClient, expected: Expected, subjectWord: string): Promise<void> {
  const { inboxId, threadId } = expected;

  const got = await sdk.inboxes.threads.get(inboxId, threadId);
  serialization.Thread.jsonOrThrow(got, STRICT);
  expectThreadFields(got, expected);
  expect(got.count).toBe(expected.messages.length);
  expect(got.messages.map((message) => message.messageId)).toEqual(expected.messages.map((m) => m.messageId));

  const podGot = await sdk.threads.get(threadId);
  serialization.Thread.jsonOrThrow(podGot, STRICT);
  expectThreadFields(podGot, expected);

  const listed = await sdk.inboxes.threads.list(inboxId);
  serialization.ListThreadsResponse.jsonOrThrow(listed, STRICT);
  const inList = listed.threads.find((thread) => thread.threadId === threadId);
  expect(inList).toBeDefined();
  expectThreadFields(inList as AgentMail.ThreadItem, expected);

  const podListed = await sdk.threads.list();
  serialization.ListThreadsResponse.jsonOrThrow(podListed, STRICT);
  expectThreadFields(
    podListed.threads.find((thread) => thread.threadId === threadId) as AgentMail.ThreadItem,
    expected,
  );

  const searched = await sdk.inboxes.threads.search(inboxId, { q: subjectWord });
  serialization.SearchThreadsResponse.jsonOrThrow(searched, STRICT);
  expectThreadFields(searched.threads.find((thread) => thread.threadId === threadId) as AgentMail.ThreadItem, expected);

  const podSearched = await sdk.threads.search({ q: subjectWord });
  serialization.SearchThreadsResponse.jsonOrThrow(podSearched, STRICT);
  expectThreadFields(
    podSearched.threads.find((thread) => thread.threadId === threadId) as AgentMail.ThreadItem,
    expected,
  );
}

describe("thread fields through the official agentmail SDK", () => {
  it("sums up a conversation in every view, and again after its messages are deleted", async () => {
    const { sdk } = await served.newPod();
    const ada = (await sdk.inboxes.create({ username: "fields-ada", displayName: "Ada Sender" })).inboxId;
    const bob = (await sdk.inboxes.create({ username: "fields-bob" })).inboxId;
    const first = await sdk.inboxes.messages.send(ada, {
      to: [bob],
      cc: ["carol@example.com"],
      subject: "Quarterly figures",
      text: "first, the figures",
      attachments: [
        { filename: "figures.csv", contentType: "text/csv", content: Buffer.from("q,1\n").toString("base64") },
      ],
    });
    const reply = await sdk.inboxes.messages.reply(bob, first.messageId, { text: "second, thanks" });
    const again = await sdk.inboxes.messages.reply(ada, reply.messageId, { text: "third, you are welcome" });
    const threadId = reply.threadId;
    expect(again.threadId).toBe(first.threadId);

    // Bob's inbox: Ada's message received, Bob's reply sent, Ada's answer received.
    const bobMessages = await Promise.all(
      [first.messageId, reply.messageId, again.messageId].map((id) => sdk.inboxes.messages.get(bob, id)),
    );
    const [received, sent, answered] = bobMessages;
    expect(received?.from).toBe(`Ada Sender <${ada}>`);
    await expectEverywhere(
      sdk,
      {
        inboxId: bob,
        threadId,
        senders: [`Ada Sender <${ada}>`, bob],
        recipients: [bob, "carol@example.com", ada],
        messages: bobMessages,
        sentTimestamp: sent?.timestamp,
        receivedTimestamp: answered?.timestamp,
        createdAt: received?.createdAt,
      },
      "quarterly",
    );

    // The newest message goes: the thread's newest is the reply, and nothing was received after the first.
    await sdk.inboxes.messages.delete(bob, again.messageId);
    await expectEverywhere(
      sdk,
      {
        inboxId: bob,
        threadId,
        senders: [`Ada Sender <${ada}>`, bob],
        recipients: [bob, "carol@example.com", ada],
        messages: bobMessages.slice(0, 2),
        sentTimestamp: sent?.timestamp,
        receivedTimestamp: received?.timestamp,
        createdAt: received?.createdAt,
      },
      "quarterly",
    );

    // The first goes too: one message, sent by Bob to Ada, and nothing received any more.
    await sdk.inboxes.messages.delete(bob, first.messageId);
    await expectEverywhere(
      sdk,
      {
        inboxId: bob,
        threadId,
        senders: [bob],
        recipients: [ada],
        messages: bobMessages.slice(1, 2),
        sentTimestamp: sent?.timestamp,
        receivedTimestamp: undefined,
        createdAt: received?.createdAt,
      },
      "quarterly",
    );

    // Ada's inbox keeps its own three copies: its thread is untouched by Bob's deletes.
    const adaThreadId = first.threadId;
    const adaMessages = await Promise.all(
      [first.messageId, reply.messageId, again.messageId].map((id) => sdk.inboxes.messages.get(ada, id)),
    );
    await expectEverywhere(
      sdk,
      {
        inboxId: ada,
        threadId: adaThreadId,
        senders: [`Ada Sender <${ada}>`, bob],
        recipients: [bob, "carol@example.com", ada],
        messages: adaMessages,
        sentTimestamp: adaMessages[2]?.timestamp,
        receivedTimestamp: adaMessages[1]?.timestamp,
        createdAt: adaMessages[0]?.createdAt,
      },
      "quarterly",
    );
  });

  it("shows each sender once however often it writes, and a thread of one message whole", async () => {
    const { sdk } = await served.newPod();
    const ada = (await sdk.inboxes.create({ username: "once-ada" })).inboxId;
    const bob = (await sdk.inboxes.create({ username: "once-bob" })).inboxId;
    const opening = await sdk.inboxes.messages.send(ada, { to: [bob], subject: "Lunch plans", text: "noon?" });
    let last = opening;
    for (const [inbox, text] of [
      [bob, "yes"],
      [ada, "great"],
      [bob, "see you"],
    ] as const) {
      last = await sdk.inboxes.messages.reply(inbox, last.messageId, { text });
    }
    const listed = await sdk.inboxes.threads.list(ada);
    expect(listed.threads).toHaveLength(1);
    const [thread] = listed.threads;
    expect(thread).toMatchObject({ senders: [ada, bob], recipients: [bob, ada], messageCount: 4, preview: "see you" });
    expect(thread?.lastMessageId).toBe(last.messageId);

    // A message to an outside address alone: no reply, nothing received.
    const lone = await sdk.inboxes.messages.send(ada, { to: ["dan@example.com"], subject: "Alone", text: "hello" });
    const got = await sdk.inboxes.threads.get(ada, lone.threadId);
    serialization.Thread.jsonOrThrow(got, STRICT);
    expect(got).toMatchObject({ senders: [ada], recipients: ["dan@example.com"], messageCount: 1, count: 1 });
    expect(got.receivedTimestamp).toBeUndefined();
    expect(got.sentTimestamp).toEqual(got.messages[0]?.timestamp);
    expect(got.size).toBe(got.messages[0]?.size);
  });

  it("gives a message.received event the thread as its lists then show it", async () => {
    const { sdk } = await served.newPod();
    const ada = (await sdk.inboxes.create({ username: "event-ada" })).inboxId;
    const bob = (await sdk.inboxes.create({ username: "event-bob" })).inboxId;
    const socket = await sdk.websockets.connect({ reconnectAttempts: 0, connectionTimeoutInSeconds: 5 });
    try {
      const events: unknown[] = [];
      let wake = () => {};
      socket.on("message", (message) => {
        events.push(message);
        wake();
      });
      const next = async (matches: (message: unknown) => boolean): Promise<unknown> => {
        for (;;) {
          const found = events.find(matches);
          if (found) {
            return found;
          }
          await new Promise<void>((resolve) => {
            wake = resolve;
          });
        }
      };
      await socket.waitForOpen();
      socket.sendSubscribe({ type: "subscribe", eventTypes: ["message.received"], inboxIds: [bob] });
      await next((message) => (message as { type?: string }).type === "subscribed");

      const first = await sdk.inboxes.messages.send(ada, { to: [bob], subject: "Event thread", text: "one" });
      const reply = await sdk.inboxes.messages.reply(bob, first.messageId, { text: "two" });
      const again = await sdk.inboxes.messages.reply(ada, reply.messageId, { text: "three" });
      const event = (await next((message) =>
        JSON.stringify(message).includes(again.messageId),
      )) as AgentMail.MessageReceivedEvent;
      // Parsed by the SDK into its own form: every field of its thread type was there.
      expect(event.eventType).toBe("message.received");
      serialization.ThreadItem.jsonOrThrow(event.thread, STRICT);

      const listed = (await sdk.inboxes.threads.list(bob)).threads.find((thread) => thread.threadId === reply.threadId);
      expect(listed).toBeDefined();
      const summary = ({
        senders,
        recipients,
        lastMessageId,
        messageCount,
        size,
        preview,
        timestamp,
      }: AgentMail.ThreadItem) => ({
        senders,
        recipients,
        lastMessageId,
        messageCount,
        size,
        preview,
        timestamp,
      });
      expect(summary(event.thread)).toEqual(summary(listed as AgentMail.ThreadItem));
      expect(event.thread.lastMessageId).toBe(again.messageId);
      expect(event.thread.sentTimestamp).toEqual(listed?.sentTimestamp);
      expect(event.thread.receivedTimestamp).toEqual(listed?.receivedTimestamp);
    } finally {
      socket.close();
    }
  });
});
