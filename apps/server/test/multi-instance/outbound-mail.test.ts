import type { Relay } from "@pigeonhole/mail-testing";
import { startRelay } from "@pigeonhole/mail-testing";
import { simpleParser } from "mailparser";
import { afterEach, describe, expect, it } from "vitest";
import type { Instances } from "./instances.ts";
import { bounded, inboxHeaders, roundRobin, startInstances } from "./instances.ts";

// Every instance runs an outbound mail worker on the one queue; claims keep two instances off the same recipient.
let instances: Instances | undefined;
let relay: Relay | undefined;
afterEach(async () => {
  await instances?.stop();
  await relay?.stop();
  instances = undefined;
  relay = undefined;
});

describe("outbound mail on several instances", () => {
  it("relays each recipient of each send exactly once", async () => {
    relay = await startRelay();
    instances = await startInstances(2, ["--smtp-relay", relay.url]);
    const { all } = instances;
    const created = await fetch(`${all[0]?.inboxUrl}/v0/inboxes`, {
      method: "POST",
      headers: inboxHeaders(),
      body: "{}",
    });
    const { inbox_id } = (await created.json()) as { inbox_id: string };
    const sends = 20;
    const expected: string[] = [];
    await bounded(sends, 4, async (i) => {
      const response = await fetch(
        `${roundRobin(all, i).inboxUrl}/v0/inboxes/${encodeURIComponent(inbox_id)}/messages`,
        {
          method: "POST",
          headers: inboxHeaders(),
          body: JSON.stringify({ to: [`to-${i}@example.org`], cc: ["team@example.org"], text: `Message ${i}` }),
        },
      );
      expect(response.status).toBe(200);
      const { message_id } = (await response.json()) as { message_id: string };
      expected.push(`${message_id} to-${i}@example.org`, `${message_id} team@example.org`);
    });
    await relay.waitForDelivered(expected.length, 30_000);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const got: string[] = [];
    for (const message of await relay.delivered()) {
      got.push(`${(await simpleParser(message.raw)).messageId} ${message.recipient}`);
    }
    expect(got.sort()).toEqual(expected.sort());
  }, 60_000);
});
