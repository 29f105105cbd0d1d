import { RateLimitError } from "@pigeonhole/inbox";
import { beforeEach, expect, it } from "vitest";
import { useLocalServer } from "./local-server.ts";

// Two sends a day, so that the limit is reached in two calls.
const { tc, inbox } = await useLocalServer({
  limits: { inboxSendsPerDay: 2 },
});

const send = (subject: string) =>
  inbox.post("/v0/inboxes/{inbox_id}/messages", {
    params: { path: { inbox_id: "app@pigeonhole.test" } },
    body: { to: "ada@example.com", subject },
  });

beforeEach(async () => {
  await inbox.post("/v0/inboxes", { body: { username: "app" } });
});

// Noon UTC on the day after the server's: later than its time, as the
// clock never goes back, and twelve hours from either end of its day.
async function noonTomorrow(): Promise<Date> {
  const noon = new Date((await tc.clock.get()).now);
  noon.setUTCDate(noon.getUTCDate() + 1);
  noon.setUTCHours(12, 0, 0, 0);
  return noon;
}

it("sends again the day after the daily limit", async () => {
  // The limit counts per UTC day: two sends before midnight and one
  // after would all go through. Set the clock first, so that the test
  // passes whatever time of day it runs at.
  await tc.clock.set({ now: await noonTomorrow(), frozen: true });
  await send("Newsletter 1");
  await send("Newsletter 2");
  // Retry-After names the next day: too long to retry, so the client
  // throws at once.
  const refused = send("Newsletter 3");
  await expect(refused).rejects.toBeInstanceOf(RateLimitError);
  await expect(refused).rejects.toMatchObject({
    code: "SEND_LIMIT_EXCEEDED",
  });

  await tc.clock.advance({ days: 1 });
  const sent = await send("Newsletter 3");
  expect(sent.message_id).toMatch(/@pigeonhole\.test>$/);
});

it("writes the same time while the clock is frozen", async () => {
  const { now } = await tc.clock.set({ frozen: true });
  await send("Frozen 1");
  await send("Frozen 2");
  const { messages } = await inbox.get(
    "/v0/inboxes/{inbox_id}/messages",
    { params: { path: { inbox_id: "app@pigeonhole.test" } } },
  );
  expect(messages.map((message) => message.created_at)).toEqual([
    now,
    now,
  ]);
});
