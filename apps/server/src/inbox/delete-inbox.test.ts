import type { WebhookDelivery } from "@pigeonhole/inbox-types";
import { createTestControl, type TestControl } from "@pigeonhole/test-control";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import type { InboxClient, TestServer } from "../../test/support/test-server.ts";
import { expectData, startTestServer } from "../../test/support/test-server.ts";
import { startWebhookReceiver } from "../../test/support/webhook-receiver.ts";
import { DEFAULT_WEBHOOK_RETRY_DELAYS_MS } from "../options.ts";

let t: TestServer;
let control: TestControl;
let stranger: InboxClient;
// Every delivery fails, so each is retried on the default schedule, which the tests drive with the server's clock.
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
beforeAll(async () => {
  t = await startTestServer();
  const testControl = t.server.testControl;
  if (!testControl) {
    throw new Error("Test control is off on the test server.");
  }
  control = createTestControl({ baseUrl: t.server.inbox.url, key: testControl.key });
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

/**
 * The deliveries in the logs of `webhookIds` but those in `earlier`, once each of them has made `attempts` attempts,
 * read once more then: a read may see an attempt before the delivery it belongs to shows its outcome, and the read
 * after it sees both. Fails after 5 s.
 */
async function deliveriesAfter(
  webhookIds: string[],
  attempts: number,
  earlier: WebhookDelivery[] = [],
): Promise<WebhookDelivery[]> {
  const skipped = new Set(earlier.map((delivery) => delivery.delivery_id));
  const read = async () => {
    const logs = await Promise.all(
      webhookIds.map(async (webhook_id) =>
        expectData(
          await t.inbox.GET("/v0/webhooks/{webhook_id}/deliveries", {
            params: { path: { webhook_id }, query: { limit: 100 } },
          }),
        ),
      ),
    );
    return logs.flatMap((log) => log.deliveries).filter((delivery) => !skipped.has(delivery.delivery_id));
  };
  const deadline = Date.now() + 5_000;
  for (;;) {
    const deliveries = await read();
    if (deliveries.every((delivery) => delivery.attempts.length === attempts)) {
      return read();
    }
    if (Date.now() > deadline) {
      throw new Error(`Not every delivery made ${attempts} attempts: ${JSON.stringify(deliveries)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("deleting an inbox", () => {
  it("removes its messages, threads and deliveries, frees the address and leaves other inboxes' copies", async () => {
    // Time stands still but for the test's moves: no retry comes unless the test moves the clock to it.
    await control.clock.set({ frozen: true });
    onTestFinished(async () => {
      await control.clock.set({ frozen: false });
    });
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
    // Each message is one message.sent and one message.received: those of the doomed inbox reach its three webhooks
    // (six deliveries), those of the kept inbox the two that name it or every inbox (four). Each failed once, and
    // is recorded so: no attempt is on its way.
    const hooks = [onlyDoomed.webhook_id, both.webhook_id, everyInbox.webhook_id];
    expect(await deliveriesAfter(hooks, 1)).toHaveLength(10);
    expect(deliveriesFor(doomed)).toBe(6);
    expect(deliveriesFor(kept)).toBe(4);

    const deleted = await t.inbox.DELETE("/v0/inboxes/{inbox_id}", { params: { path: { inbox_id: doomed } } });
    expect(deleted.response.status).toBe(204);

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

    // Its pending deliveries are gone from the logs, and get no more retries through the whole schedule, while the
    // other inbox's get every one.
    expect(await deliveriesAfter(hooks, 1)).toHaveLength(4);
    for (const [retry, delay] of DEFAULT_WEBHOOK_RETRY_DELAYS_MS.entries()) {
      await control.clock.advance(delay);
      await deliveriesAfter(hooks, retry + 2);
    }
    const finished = await deliveriesAfter(hooks, DEFAULT_WEBHOOK_RETRY_DELAYS_MS.length + 1);
    expect(finished.map((delivery) => delivery.status)).toEqual(["failed", "failed", "failed", "failed"]);
    expect(deliveriesFor(doomed)).toBe(6);
    expect(deliveriesFor(kept)).toBe(4 * (DEFAULT_WEBHOOK_RETRY_DELAYS_MS.length + 1));

    // The address is free again, for a new, empty inbox.
    const again = expectData(await t.inbox.POST("/v0/inboxes", { body: { username: "doomed" } }));
    expect(again.inbox_id).toBe(doomed);
    const empty = expectData(await t.inbox.GET("/v0/inboxes/{inbox_id}/messages", { params: { path } }));
    expect(empty.messages).toEqual([]);
    expect(expectData(await t.inbox.GET("/v0/inboxes/{inbox_id}/threads", { params: { path } })).threads).toEqual([]);
    const received = receiver.deliveries.length;
    const before = await deliveriesAfter(hooks, DEFAULT_WEBHOOK_RETRY_DELAYS_MS.length + 1);
    expectData(
      await t.inbox.POST("/v0/inboxes/{inbox_id}/messages", {
        params: { path: { inbox_id: kept } },
        body: { to: doomed, subject: "Hello again" },
      }),
    );
    // The message.sent of the kept inbox reaches two webhooks; the new inbox's message.received only the webhook of
    // every inbox. Deliveries are queued with the message, so the logs are complete once it is sent.
    const queued = await deliveriesAfter(hooks, 1, before);
    expect(queued.map((delivery) => delivery.event_type).sort()).toEqual([
      "message.received",
      "message.sent",
      "message.sent",
    ]);
    await receiver.waitFor(received + 3);
    const hooksOfNewInbox = receiver.deliveries
      .slice(received)
      .filter((delivery) => eventInbox(delivery.body) === doomed)
      .map((delivery) => delivery.headers["webhook-id"]);
    expect(hooksOfNewInbox).toHaveLength(1);
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
