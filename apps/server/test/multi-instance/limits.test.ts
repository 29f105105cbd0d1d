import { createTestControl } from "@pigeonhole/test-control";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_TEST_CONTROL_KEY } from "../../src/options.ts";
import type { Instances } from "./instances.ts";
import { bounded, inboxHeaders, roundRobin, startInstances } from "./instances.ts";

// The limits are counted in the database, so two instances together allow what one would, not twice as much.
const REQUESTS_PER_MINUTE = 40;
const SENDS_PER_DAY = 10;

// Two pairs of instances, each pair on its own database with one limit set (the other left generous).
let requestLimited: Instances;
let sendLimited: Instances;
beforeAll(async () => {
  requestLimited = await startInstances(2, ["--inbox-requests-per-minute", String(REQUESTS_PER_MINUTE)]);
  sendLimited = await startInstances(2, ["--inbox-sends-per-day", String(SENDS_PER_DAY)]);
}, 60_000);
afterAll(async () => {
  await requestLimited?.stop();
  await sendLimited?.stop();
});

/**
 * Freezes every instance's clock at the same instant, noon UTC of the next day: the limit windows (a minute, a UTC
 * day) are then the same on all of them and no burst can straddle a boundary, whatever the time of day.
 */
async function freezeAllAtNextNoon(instances: Instances): Promise<void> {
  const noon = new Date(Date.now() + 24 * 60 * 60 * 1000);
  noon.setUTCHours(12, 0, 0, 0);
  await Promise.all(
    instances.all.map((instance) =>
      createTestControl({ baseUrl: instance.inboxUrl, key: DEFAULT_TEST_CONTROL_KEY }).clock.set({
        now: noon,
        frozen: true,
      }),
    ),
  );
}

describe("limits over several instances", () => {
  it("allow the request limit once over all instances together", async () => {
    await freezeAllAtNextNoon(requestLimited);
    const statuses: number[] = [];
    await bounded(2 * REQUESTS_PER_MINUTE, 10, async (i) => {
      const response = await fetch(`${roundRobin(requestLimited.all, i).inboxUrl}/v0/inboxes`, {
        headers: inboxHeaders(),
      });
      statuses.push(response.status);
      await response.body?.cancel();
    });
    expect(statuses.filter((status) => status === 200)).toHaveLength(REQUESTS_PER_MINUTE);
    expect(statuses.filter((status) => status === 429)).toHaveLength(REQUESTS_PER_MINUTE);
  });

  it("allow the daily sends once over all instances together", async () => {
    await freezeAllAtNextNoon(sendLimited);
    const created = await fetch(`${sendLimited.all[0]?.inboxUrl}/v0/inboxes`, {
      method: "POST",
      headers: inboxHeaders(),
      body: "{}",
    });
    const { inbox_id } = (await created.json()) as { inbox_id: string };
    const statuses: number[] = [];
    await bounded(2 * SENDS_PER_DAY, 10, async (i) => {
      const response = await fetch(
        `${roundRobin(sendLimited.all, i).inboxUrl}/v0/inboxes/${encodeURIComponent(inbox_id)}/messages`,
        {
          method: "POST",
          headers: inboxHeaders(),
          body: JSON.stringify({ to: ["limit@example.com"], subject: `Send ${i}`, text: "Counted." }),
        },
      );
      statuses.push(response.status);
      const body = await response.text();
      if (response.status === 429) {
        expect(JSON.parse(body).error.details.code).toBe("SEND_LIMIT_EXCEEDED");
      }
    });
    expect(statuses.filter((status) => status === 200)).toHaveLength(SENDS_PER_DAY);
    expect(statuses.filter((status) => status === 429)).toHaveLength(SENDS_PER_DAY);
  });
});
