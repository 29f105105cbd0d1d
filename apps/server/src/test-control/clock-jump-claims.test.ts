import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testControlOf } from "../../test/support/test-control-requests.ts";
import type { TestServer } from "../../test/support/test-server.ts";
import { expectData, startTestServer } from "../../test/support/test-server.ts";

// Claims on work rows hold in real time: moving the server's clock forward while an attempt is in flight must not
// make its claim look run out, or the worker would take the row again and deliver it twice.

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.server.close());

/** A webhook receiver that holds each answer until `release()`, counting the requests it got. */
async function holdingReceiver() {
  const held: ServerResponse[] = [];
  let arrived: () => void = () => {};
  const firstArrival = new Promise<void>((resolve) => {
    arrived = resolve;
  });
  let requests = 0;
  const server = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      requests++;
      held.push(response);
      arrived();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    firstArrival,
    requests: () => requests,
    release: () => {
      for (const response of held.splice(0)) {
        response.writeHead(200).end();
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe("a clock moved forward during an attempt", () => {
  it("leaves the attempt's claim alone: the delivery is sent once", async () => {
    const hook = await holdingReceiver();
    const control = testControlOf(t.server);
    try {
      const client = await t.newInboxTenant();
      const inbox = async (name: string) =>
        expectData(await client.POST("/v0/inboxes", { body: { username: `${name}-${crypto.randomUUID()}` } })).inbox_id;
      const from = await inbox("from");
      const to = await inbox("to");
      const webhook = expectData(
        await client.POST("/v0/webhooks", { body: { url: hook.url, event_types: ["message.received"] } }),
      );
      await client.POST("/v0/inboxes/{inbox_id}/messages", {
        params: { path: { inbox_id: from } },
        body: { to, subject: "once", text: "once" },
      });
      await hook.firstArrival;
      // Far past the claim (60 s by default): the worker is woken and looks for due rows at once.
      expect((await control.advance(10 * 3_600_000)).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 300));
      hook.release();
      const deadline = Date.now() + 5_000;
      let status = "pending";
      while (status !== "succeeded" && Date.now() < deadline) {
        const { deliveries } = expectData(
          await client.GET("/v0/webhooks/{webhook_id}/deliveries", {
            params: { path: { webhook_id: webhook.webhook_id } },
          }),
        );
        status = deliveries[0]?.status ?? "pending";
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(status).toBe("succeeded");
      expect(hook.requests()).toBe(1);
    } finally {
      hook.release();
      await hook.close();
    }
  });
});
