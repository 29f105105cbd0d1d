import { afterAll, beforeAll, describe, expect, it } from "vitest";
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

const minuteOf = (ms: number) => Math.floor(ms / 60_000);

/** Statuses of `count` requests spread over the instances, retried whole if they straddled a minute boundary. */
async function statusesWithinOneMinute(count: number, request: (url: string) => Promise<Response>): Promise<number[]> {
  for (let attempt = 0; attempt < 2; attempt++) {
    // Not within a few seconds of a boundary: a window holds every request of the burst.
    while (Date.now() % 60_000 > 55_000) {
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const started = Date.now();
    const statuses: number[] = [];
    await bounded(count, 10, async (i) => {
      const response = await request(roundRobin(requestLimited.all, i).inboxUrl);
      statuses.push(response.status);
      await response.body?.cancel();
    });
    if (minuteOf(started) === minuteOf(Date.now())) {
      return statuses;
    }
  }
  throw new Error("Every burst straddled a minute boundary.");
}

describe("limits over several instances", () => {
  it("allow the request limit once over all instances together", async () => {
    const statuses = await statusesWithinOneMinute(2 * REQUESTS_PER_MINUTE, (url) =>
      fetch(`${url}/v0/inboxes`, { headers: inboxHeaders() }),
    );
    expect(statuses.filter((status) => status === 200)).toHaveLength(REQUESTS_PER_MINUTE);
    expect(statuses.filter((status) => status === 429)).toHaveLength(REQUESTS_PER_MINUTE);
  });

  it("allow the daily sends once over all instances together", async () => {
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
