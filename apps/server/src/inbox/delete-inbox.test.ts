import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { InboxClient, TestServer } from "../testing/test-server.ts";
import { expectData, startTestServer } from "../testing/test-server.ts";
import { startWebhookReceiver } from "../testing/webhook-receiver.ts";

let t: TestServer;
let stranger: InboxClient;
// Every delivery fails, so each is retried every 200 ms until it is gone.
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
beforeAll(async () => {
  t = await startTestServer({ webhookRetryDelaysMs: Array.from({ length: 50 }, () => 200) });
  stranger = await t.newInboxTenant();
  receiver = await startWebhookReceiver(() => 500);
});
afterAll(async () => {
  await t.server.close();
  await receiver.close();
});

const eventInbox = (body: string): string | undefined => {
  const event = JSON.parse(body) as { message?: { inbox_id: string }; send?: { inbox_id: string } };
  return event.message?.inbox_id ?? event.send?.inbox_id;
};
const deliveriesFor = (inboxId: string) =>
  receiver.deliveries.filter((delivery) => eventInbox(delivery.body) === inboxId).length;

describe("deleting an inbox", () => {
  it("removes its messages, threads and deliveries, frees the address and leaves other inboxes' copies", async () => {
    const doomed = expectData(await t.inbox.POST("/v0/inboxes", { body: { username: "doomed" } })).inbox_id;
    const kept = expectData(await t.inbox.POST("/v0/inboxes", { body: { username: "kept" } })).inbox_id;
    const onlyDoomed = expectData(
      await t.inbox.POST("/v0/webhooks", { body: { url: receiver.url, inbox_ids: [doomed] } }),
    );
    const both = expectData(
      await t.inbox.POST("/v0/webhooks", { body: { url: receiver.url, inbox_ids: [doomed, kept] } }),
    );
    const everyInbox = expectData(await t.inbox.POST("/v0/webhooks", { body: { url: receiver.url } }));

    const toKept = expectData(
      await t.inbox.POST("/v0/inboxes/{inbox_id}/messages", {
        params: { path: { inbox_id: doomed } },
        body: { to: kept, subject: "Keep this", attachments: [{ filename: "a.bin", content: "AAEC" }] },
      }),
    );
    const toDoomed = expectData(
      await t.inbox.POST("/v0/inboxes/{inbox_id}/messages", {
        params: { path: { inbox_id: kept } },
        body: { to: doomed, subject: "Gone soon" },
      }),
    );
    // message.sent and message.received of the doomed inbox reach three webhooks between them, and are retried.
    await receiver.waitFor(8);
    expect(deliveriesFor(doomed)).toBeGreaterThan(0);

    const deleted = await t.inbox.DELETE("/v0/inboxes/{inbox_id}", { params: { path: { inbox_id: doomed } } });
    expect(deleted.response.status).toBe(204);
    // An attempt already on its way when the inbox went still lands.
    await sleep(100);
    const atDeletion = deliveriesFor(doomed);
    const keptAtDeletion = deliveriesFor(kept);

    const path = { inbox_id: doomed };
    expect((await t.inbox.GET("/v0/inboxes/{inbox_id}", { params: { path } })).response.status).toBe(404);
    expect((await t.inbox.GET("/v0/inboxes/{inbox_id}/messages", { params: { path } })).response.status).toBe(404);
    const listed = expectData(await t.inbox.GET("/v0/inboxes", { params: { query: { limit: 100 } } }));
    expect(listed.inboxes.map((inbox) => inbox.inbox_id)).not.toContain(doomed);

    // The copy another inbox holds stays whole, attachment and source included.
    const copy = expectData(
      await t.inbox.GET("/v0/inboxes/{inbox_id}/messages/{message_id}", {
        params: { path: { inbox_id: kept, message_id: toKept.message_id } },
      }),
    );
    const attachment = await t.inbox.GET("/v0/inboxes/{inbox_id}/messages/{message_id}/attachments/{attachment_id}", {
      params: {
        path: {
          inbox_id: kept,
          message_id: toKept.message_id,
          attachment_id: copy.attachments[0]?.attachment_id ?? "",
        },
      },
      parseAs: "arrayBuffer",
    });
    expect(new Uint8Array(attachment.data ?? new ArrayBuffer(0))).toEqual(new Uint8Array([0, 1, 2]));
    const source = await t.inbox.GET("/v0/inboxes/{inbox_id}/messages/{message_id}/raw", {
      params: { path: { inbox_id: kept, message_id: toKept.message_id } },
      parseAs: "text",
    });
    expect(source.data).toContain("Subject: Keep this");
    expect(
      (
        await t.inbox.GET("/v0/inboxes/{inbox_id}/messages/{message_id}", {
          params: { path: { inbox_id: kept, message_id: toDoomed.message_id } },
        })
      ).response.status,
    ).toBe(200);

    // Webhooks no longer name it; one left with no inbox matches none, not all.
    const hook = async (id: string) =>
      expectData(await t.inbox.GET("/v0/webhooks/{webhook_id}", { params: { path: { webhook_id: id } } })).inbox_ids;
    expect(await hook(onlyDoomed.webhook_id)).toEqual([]);
    expect(await hook(both.webhook_id)).toEqual([kept]);
    expect(await hook(everyInbox.webhook_id)).toBeNull();

    // Its pending deliveries are gone: no more retries, while the other inbox's go on.
    await sleep(1000);
    expect(deliveriesFor(doomed)).toBe(atDeletion);
    expect(deliveriesFor(kept)).toBeGreaterThan(keptAtDeletion);

    // The address is free again, for a new, empty inbox.
    const again = expectData(await t.inbox.POST("/v0/inboxes", { body: { username: "doomed" } }));
    expect(again.inbox_id).toBe(doomed);
    const empty = expectData(await t.inbox.GET("/v0/inboxes/{inbox_id}/messages", { params: { path } }));
    expect(empty.messages).toEqual([]);
    expect(expectData(await t.inbox.GET("/v0/inboxes/{inbox_id}/threads", { params: { path } })).threads).toEqual([]);
    const received = receiver.deliveries.length;
    expectData(
      await t.inbox.POST("/v0/inboxes/{inbox_id}/messages", {
        params: { path: { inbox_id: kept } },
        body: { to: doomed, subject: "Hello again" },
      }),
    );
    await receiver.waitFor(received + 3);
    await sleep(100);
    const hooksOfNewInbox = receiver.deliveries
      .slice(received)
      .filter((delivery) => eventInbox(delivery.body) === doomed)
      .map((delivery) => delivery.headers["webhook-id"]);
    // Only the webhook of every inbox hears of the new one's mail (first attempt; retries repeat the same id).
    expect(new Set(hooksOfNewInbox).size).toBe(1);
  });

  it("answers 404 for another key's inbox and for one already deleted", async () => {
    const mine = expectData(await t.inbox.POST("/v0/inboxes", { body: { username: "delete-twice" } })).inbox_id;
    const path = { params: { path: { inbox_id: mine } } };
    expect((await stranger.DELETE("/v0/inboxes/{inbox_id}", path)).response.status).toBe(404);
    expect((await t.inbox.GET("/v0/inboxes/{inbox_id}", path)).response.status).toBe(200);
    expect((await t.inbox.DELETE("/v0/inboxes/{inbox_id}", path)).response.status).toBe(204);
    const again = await t.inbox.DELETE("/v0/inboxes/{inbox_id}", path);
    expect(again.response.status).toBe(404);
    expect(again.error?.error.details.code).toBe("NOT_FOUND");
  });
});
