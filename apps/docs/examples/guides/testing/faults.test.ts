import {
  APIConnectionTimeoutError,
  InternalServerError,
  type RetryEvent,
} from "@pigeonhole/inbox";
import { beforeEach, expect, it } from "vitest";
import { useLocalServer } from "./local-server.ts";

const { server, tc, inbox } = await useLocalServer();

const send = (subject: string, onRetry?: (retry: RetryEvent) => void) =>
  inbox.post("/v0/inboxes/{inbox_id}/messages", {
    params: { path: { inbox_id: "app@pigeonhole.test" } },
    body: { to: "ada@pigeonhole.test", subject },
    ...(onRetry ? { onRetry } : {}),
  });

beforeEach(async () => {
  await inbox.post("/v0/inboxes", { body: { username: "app" } });
  await inbox.post("/v0/inboxes", { body: { username: "ada" } });
});

it("waits as long as a 429's Retry-After says, then sends", async () => {
  const fault = await tc.faults.add({
    target: "request",
    match: {
      method: "POST",
      path: "/v0/inboxes/*/messages",
      api_key: server.inbox.apiKey,
    },
    action: {
      type: "respond",
      status: 429,
      headers: { "Retry-After": "1" },
    },
  });
  const retries: RetryEvent[] = [];
  await send("Rate limited once", (retry) => retries.push(retry));

  expect(retries.map(({ reason, delay }) => [reason, delay])).toEqual([
    [429, 1_000],
  ]);
  expect(await tc.faults.get(fault.fault_id)).toMatchObject({
    hits: 1,
    remaining: 0,
  });
});

it("retries two 503s, and gives up after a third", async () => {
  await tc.faults.add({
    target: "request",
    match: { method: "GET", path: "/v0/inboxes" },
    times: 2,
    action: { type: "respond", status: 503 },
  });
  // Two retries after the first attempt: the third attempt succeeds.
  const page = await inbox.get("/v0/inboxes");
  expect(page.count).toBe(2);

  await tc.faults.add({
    target: "request",
    match: { method: "GET", path: "/v0/inboxes" },
    times: 3,
    action: { type: "respond", status: 503 },
  });
  await expect(inbox.get("/v0/inboxes")).rejects.toBeInstanceOf(
    InternalServerError,
  );
});

it("replays a send whose answer was lost, and sends it once", async () => {
  // The server stores the message, then closes the connection.
  await tc.faults.add({
    target: "request",
    match: { method: "POST", path: "/v0/inboxes/*/messages" },
    action: { type: "drop", when: "after" },
  });
  const retries: RetryEvent[] = [];
  const sent = await send("Lost answer", (retry) =>
    retries.push(retry),
  );

  // The retry carried the same Idempotency-Key: the server answered
  // the stored send instead of sending it again.
  expect(retries).toHaveLength(1);
  const { messages } = await inbox.get(
    "/v0/inboxes/{inbox_id}/messages",
    {
      params: {
        path: { inbox_id: "app@pigeonhole.test" },
        query: { labels: ["sent"] },
      },
    },
  );
  expect(messages.map((message) => message.message_id)).toEqual([
    sent.message_id,
  ]);
});

it("gives up on a slow answer after its timeout", async () => {
  await tc.faults.add({
    target: "request",
    match: { method: "GET", path: "/v0/inboxes" },
    action: { type: "delay", ms: 1_000 },
  });
  await expect(
    inbox.get("/v0/inboxes", { timeout: 200, maxRetries: 0 }),
  ).rejects.toBeInstanceOf(APIConnectionTimeoutError);
});
