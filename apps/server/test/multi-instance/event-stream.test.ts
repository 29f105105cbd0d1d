import { afterEach, describe, expect, it } from "vitest";
import type { StreamConnection } from "../support/event-stream-client.ts";
import { connectStream } from "../support/event-stream-client.ts";
import type { Instances } from "./instances.ts";
import { bounded, inboxHeaders, roundRobin, startInstances, TEST_KEYS } from "./instances.ts";

// A subscriber on one instance hears the sends of every instance: each send notifies them all at commit.
let instances: Instances | undefined;
afterEach(async () => {
  await instances?.stop();
  instances = undefined;
});

async function subscribe(url: string, subscription: Record<string, unknown>): Promise<StreamConnection> {
  const stream = await connectStream(url, TEST_KEYS.inbox);
  stream.send({ type: "subscribe", ...subscription });
  expect((await stream.waitFor(1))[0]).toMatchObject({ type: "subscribed" });
  return stream;
}

const sendFrom = async (url: string, inboxId: string, subject: string) => {
  const response = await fetch(`${url}/v0/inboxes/${encodeURIComponent(inboxId)}/messages`, {
    method: "POST",
    headers: inboxHeaders(),
    body: JSON.stringify({ to: ["out@example.com"], subject, text: subject }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { message_id: string }).message_id;
};

const sentIds = (stream: StreamConnection) =>
  stream.messages
    .filter((message) => message.type === "event")
    .map((message) => (message.send as { message_id: string }).message_id);

describe("the live event stream over several instances", () => {
  it("delivers sends through every instance to a subscriber on one, promptly, in order and exactly once", async () => {
    // The safety-net poll is out of reach, so an event that arrives came through the database's notification.
    instances = await startInstances(2, ["--event-poll-ms", "600000"]);
    const [a, b] = instances.all;
    if (!a || !b) {
      throw new Error("Two instances expected.");
    }
    const created = await fetch(`${a.inboxUrl}/v0/inboxes`, { method: "POST", headers: inboxHeaders(), body: "{}" });
    const { inbox_id: inboxId } = (await created.json()) as { inbox_id: string };
    const live = await subscribe(a.inboxUrl, { inbox_ids: [inboxId] });

    const first = await sendFrom(b.inboxUrl, inboxId, "through B");
    await live.waitFor(2, 10_000);
    expect(sentIds(live)).toEqual([first]);

    const count = 60;
    const acknowledged: string[] = [];
    await bounded(count, 8, async (i) => {
      acknowledged.push(await sendFrom(roundRobin(instances?.all ?? [], i).inboxUrl, inboxId, `burst ${i}`));
    });
    await live.waitFor(count + 2, 15_000);
    const heard = sentIds(live).slice(1);
    expect(new Set(heard).size).toBe(count);
    expect(heard.toSorted()).toEqual(acknowledged.toSorted());

    // The stored order, read back on the other instance, is the order the live subscriber heard.
    const firstEventId = live.messages[1]?.event_id;
    const replay = await subscribe(b.inboxUrl, { inbox_ids: [inboxId], after: firstEventId });
    await replay.waitFor(count + 1, 15_000);
    expect(sentIds(replay)).toEqual(heard);
    live.ws.close();
    replay.ws.close();
  });
});
