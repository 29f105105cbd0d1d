import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestServer } from "../../test/support/test-server.ts";
import { expectData, startTestServer } from "../../test/support/test-server.ts";

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.server.close());

describe("recipient deliveries", () => {
  it("shows each recipient of the sender's copy: hosted ones local, outside ones captured without a relay", async () => {
    const from = expectData(await t.inbox.POST("/v0/inboxes", { body: { username: "deliveries-from" } })).inbox_id;
    const to = expectData(await t.inbox.POST("/v0/inboxes", { body: { username: "deliveries-to" } })).inbox_id;
    const sent = expectData(
      await t.inbox.POST("/v0/inboxes/{inbox_id}/messages", {
        params: { path: { inbox_id: from } },
        body: { to: [to, "Ada@Example.com"], cc: "grace@example.com", bcc: "audit@example.org", text: "hello" },
      }),
    );
    const senderCopy = expectData(
      await t.inbox.GET("/v0/inboxes/{inbox_id}/messages/{message_id}", {
        params: { path: { inbox_id: from, message_id: sent.message_id } },
      }),
    );
    expect(
      senderCopy.deliveries.map(({ address, status, smtp_reply, attempts }) => [address, status, smtp_reply, attempts]),
    ).toEqual([
      [to, "local", null, 0],
      ["ada@example.com", "captured", null, 0],
      ["grace@example.com", "captured", null, 0],
      ["audit@example.org", "captured", null, 0],
    ]);
    expect(senderCopy.deliveries.every((delivery) => delivery.updated_at === senderCopy.created_at)).toBe(true);

    const receivedCopy = expectData(
      await t.inbox.GET("/v0/inboxes/{inbox_id}/messages/{message_id}", {
        params: { path: { inbox_id: to, message_id: sent.message_id } },
      }),
    );
    expect(receivedCopy.deliveries).toEqual([]);

    const thread = expectData(
      await t.inbox.GET("/v0/inboxes/{inbox_id}/threads/{thread_id}", {
        params: { path: { inbox_id: from, thread_id: sent.thread_id } },
      }),
    );
    expect(thread.messages[0]?.deliveries).toEqual(senderCopy.deliveries);
  });
});
