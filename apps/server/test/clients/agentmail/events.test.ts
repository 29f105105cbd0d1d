import { AgentMailError } from "agentmail";
import { describe, expect, it } from "vitest";
import { expectData, inboxClient } from "../../support/test-server.ts";
import { agentMailServerForFile } from "./agentmail-server.ts";

const served = agentMailServerForFile();

const statusOf = async (call: Promise<unknown>): Promise<number | undefined> => {
  const error = await call.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AgentMailError);
  return (error as AgentMailError).statusCode;
};

/** A new pod with two inboxes, `sender` having sent `count` messages to `receiver` (delivered locally). */
async function podWithMail(count: number) {
  const pod = await served.newPod();
  const me = await pod.sdk.auth.me();
  const tag = (me.podId ?? "").slice(0, 8);
  const sender = await pod.sdk.inboxes.create({ username: `sender-${tag}` });
  const receiver = await pod.sdk.inboxes.create({ username: `receiver-${tag}` });
  const client = inboxClient(served.server.inbox.url, pod.apiKey);
  const messageIds: string[] = [];
  for (let i = 0; i < count; i++) {
    const sent = expectData(
      await client.POST("/v0/inboxes/{inbox_id}/messages", {
        params: { path: { inbox_id: sender.inboxId } },
        body: { to: [receiver.inboxId], subject: `Hello ${i}`, text: "Hi." },
      }),
    );
    messageIds.push(sent.message_id);
  }
  return { ...pod, podId: me.podId, sender: sender.inboxId, receiver: receiver.inboxId, messageIds };
}

describe("inboxes.events.list through the official agentmail SDK", () => {
  it("lists an inbox's stored events, newest first, with the message and the label each gave it", async () => {
    const { sdk, podId, sender, receiver, messageIds } = await podWithMail(2);
    const received = await sdk.inboxes.events.list(receiver);
    expect(received.events.map((event) => [event.eventType, event.label])).toEqual([
      ["message.received", "received"],
      ["message.received", "received"],
    ]);
    expect(received.events[0]).toMatchObject({ podId, inboxId: receiver });
    expect(received.events.map((event) => event.messageId)).toEqual([...messageIds].reverse());
    const sent = await sdk.inboxes.events.list(sender);
    expect(sent.events.map((event) => event.eventType)).toEqual(["message.sent", "message.sent"]);
  });

  it("pages through them in either order, each event once", async () => {
    const { sdk, receiver, messageIds } = await podWithMail(3);
    for (const ascending of [false, true]) {
      const seen: string[] = [];
      let pageToken: string | undefined;
      do {
        const page = await sdk.inboxes.events.list(receiver, { limit: 2, pageToken, ascending });
        seen.push(...page.events.map((event) => event.messageId));
        pageToken = page.nextPageToken ?? undefined;
      } while (pageToken);
      expect(seen).toEqual(ascending ? messageIds : [...messageIds].reverse());
    }
  });

  it("answers 404 for another pod's inbox", async () => {
    const { receiver } = await podWithMail(1);
    const other = await served.newPod();
    expect(await statusOf(other.sdk.inboxes.events.list(receiver))).toBe(404);
  });
});

describe("metrics.queryEvents and inboxes.metrics.queryEvents through the official agentmail SDK", () => {
  it("counts the pod's and one inbox's events by type over a time range", async () => {
    const { sdk, receiver } = await podWithMail(3);
    const now = Date.now();
    const range = { start: new Date(now - 60 * 60 * 1000), end: new Date(now + 60 * 60 * 1000), period: 7200 };
    const pod = await sdk.metrics.queryEvents(range);
    const total = (buckets: { count: number }[] | undefined) =>
      (buckets ?? []).reduce((sum, bucket) => sum + bucket.count, 0);
    expect(total(pod["message.received"])).toBe(3);
    expect(total(pod["message.sent"])).toBe(3);
    expect(pod["message.received"]?.[0]?.timestamp).toEqual(range.start);

    const onlyReceived = await sdk.metrics.queryEvents({ ...range, eventTypes: ["message.received"] });
    expect(Object.keys(onlyReceived)).toEqual(["message.received"]);

    const inbox = await sdk.inboxes.metrics.queryEvents(receiver, range);
    expect(total(inbox["message.received"])).toBe(3);
    expect(inbox["message.sent"]).toBeUndefined();

    const before = await sdk.metrics.queryEvents({ start: new Date(now - 3 * 60 * 60 * 1000), end: range.start });
    expect(before).toEqual({});
  });

  it("refuses an end before the start, and another pod's inbox", async () => {
    const { sdk, receiver } = await podWithMail(1);
    const now = Date.now();
    expect(await statusOf(sdk.metrics.queryEvents({ start: new Date(now), end: new Date(now - 1000) }))).toBe(400);
    const other = await served.newPod();
    expect(await statusOf(other.sdk.inboxes.metrics.queryEvents(receiver, {}))).toBe(404);
    expect(await other.sdk.metrics.queryEvents({})).toEqual({});
  });
});
