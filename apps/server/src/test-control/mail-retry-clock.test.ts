import { createServer } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { testControlOf } from "../../test/support/test-control-requests.ts";
import type { TestServer } from "../../test/support/test-server.ts";
import { expectData, startTestServer } from "../../test/support/test-server.ts";

// A relay that refuses connections delays a recipient; the default schedule's first retry (1 minute) comes as soon
// as the clock passes it.

/** A port on 127.0.0.1 that nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ smtpRelay: `smtp://127.0.0.1:${await closedPort()}` });
});
afterAll(() => t.server.close());

it("retries a delayed recipient when the clock passes the default retry delay", async () => {
  const control = testControlOf(t.server);
  const inboxId = expectData(
    await t.inbox.POST("/v0/inboxes", { body: { username: `relay-${crypto.randomUUID()}` } }),
  ).inbox_id;
  const { message_id } = expectData(
    await t.inbox.POST("/v0/inboxes/{inbox_id}/messages", {
      params: { path: { inbox_id: inboxId } },
      body: { to: "ada@example.com", subject: "retry", text: "x" },
    }),
  );
  const recipient = async () => {
    const message = expectData(
      await t.inbox.GET("/v0/inboxes/{inbox_id}/messages/{message_id}", {
        params: { path: { inbox_id: inboxId, message_id } },
      }),
    );
    return message.deliveries?.[0];
  };
  const until = async (attempts: number, withinMs: number) => {
    const deadline = performance.now() + withinMs;
    for (;;) {
      const delivery = await recipient();
      if ((delivery?.attempts ?? 0) >= attempts) {
        return delivery;
      }
      if (performance.now() > deadline) {
        throw new Error(`Still at ${JSON.stringify(delivery)} after ${withinMs} ms.`);
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  expect(await until(1, 5_000)).toMatchObject({ status: "delayed", attempts: 1 });
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect((await recipient())?.attempts).toBe(1);
  const started = performance.now();
  await control.advance(60_000);
  expect(await until(2, 2_000)).toMatchObject({ status: "delayed", attempts: 2 });
  // Woken by the clock, not found by the worker's poll: about 35 ms here, against about 195 ms without the wake.
  expect(performance.now() - started).toBeLessThan(150);
});
