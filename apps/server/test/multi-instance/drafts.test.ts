import { AgentMailClient } from "agentmail";
import { afterEach, describe, expect, it } from "vitest";
import type { Instances } from "./instances.ts";
import { startInstances, TEST_KEYS } from "./instances.ts";

// Every instance runs a scheduled-draft worker on the one table; claims and the draft's own idempotency key keep a
// due draft from going out twice.
let instances: Instances | undefined;
afterEach(async () => {
  await instances?.stop();
  instances = undefined;
});

const sdkFor = (inboxUrl: string) =>
  new AgentMailClient({
    apiKey: TEST_KEYS.inbox,
    environment: { http: inboxUrl, websockets: inboxUrl.replace(/^http/, "ws") },
    maxRetries: 0,
    timeoutInSeconds: 10,
  });

describe("scheduled drafts on several instances", () => {
  it("sends each due draft exactly once", async () => {
    instances = await startInstances(2);
    const [first, second] = instances.all.map((instance) => sdkFor(instance.inboxUrl));
    if (!first || !second) {
      throw new Error("Two instances were started.");
    }
    const from = (await first.inboxes.create({})).inboxId;
    const to = (await second.inboxes.create({})).inboxId;
    const drafts = 12;
    // Due at once on both instances' clocks: the two workers find them in the same moments.
    const sendAt = new Date(Date.now() - 1_000);
    for (let i = 0; i < drafts; i++) {
      const sdk = i % 2 === 0 ? first : second;
      await sdk.inboxes.drafts.create(from, { to: [to], subject: `due ${i}`, text: `draft ${i}`, sendAt });
    }
    // Bounded wait for the event: every draft gone (once gone, no send of it can store another message).
    const deadline = performance.now() + 30_000;
    while ((await first.drafts.list()).count > 0) {
      expect(performance.now()).toBeLessThan(deadline);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const received = await second.inboxes.messages.list(to, { limit: 100 });
    const subjects = received.messages.map((message) => message.subject).sort();
    expect(subjects).toEqual(Array.from({ length: drafts }, (_, i) => `due ${i}`).sort());
    const sent = await first.inboxes.messages.list(from, { limit: 100 });
    expect(sent.count).toBe(drafts);
  }, 60_000);
});
