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

it("sends again the day after the daily limit", async () => {
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
