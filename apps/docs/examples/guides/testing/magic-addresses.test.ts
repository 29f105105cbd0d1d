import { beforeEach, expect, it } from "vitest";
import { useLocalServer } from "./local-server.ts";
import {
  startReceiver,
  type WebhookEvent,
} from "./webhook-receiver.ts";

const { tc, inbox } = await useLocalServer();
const receiver = await startReceiver(inbox);

beforeEach(async () => {
  receiver.received.length = 0;
  await inbox.post("/v0/inboxes", { body: { username: "app" } });
  await receiver.subscribe([
    "message.delivered",
    "message.delayed",
    "message.bounced",
    "message.complained",
  ]);
});

/** Sends from the app's inbox; no relay is involved. */
async function sendTo(address: string): Promise<string> {
  const sent = await inbox.post("/v0/inboxes/{inbox_id}/messages", {
    params: { path: { inbox_id: "app@pigeonhole.test" } },
    body: { to: address, subject: "Welcome" },
  });
  return sent.message_id;
}

/** Waits until the receiver has an event of this type, and answers it. */
async function heard<T extends WebhookEvent["event_type"]>(type: T) {
  await tc.waitForWebhookDelivery({
    event_type: type,
    status: "succeeded",
  });
  const event = receiver.received.find((e) => e.event_type === type);
  return event as Extract<WebhookEvent, { event_type: T }>;
}

/** Where the recipient stands on the sent message. */
async function statusOf(
  messageId: string,
): Promise<string | undefined> {
  const message = await inbox.get(
    "/v0/inboxes/{inbox_id}/messages/{message_id}",
    {
      params: {
        path: {
          inbox_id: "app@pigeonhole.test",
          message_id: messageId,
        },
      },
    },
  );
  return message.deliveries[0]?.status;
}

it("bounce@ bounces for good", async () => {
  const messageId = await sendTo("bounce@simulator.pigeonhole.test");
  const { bounce } = await heard("message.bounced");
  expect([bounce.message_id, bounce.type]).toEqual([
    messageId,
    "Permanent",
  ]);
  expect(await statusOf(messageId)).toBe("bounced");
});

it("delay@ is delayed, then delivered on the next attempt", async () => {
  const messageId = await sendTo("delay@simulator.pigeonhole.test");
  await heard("message.delayed");
  expect(await statusOf(messageId)).toBe("delayed");

  // The next attempt is due a minute later: move the clock there.
  await tc.clock.advance({ minutes: 1 });
  const { delivery } = await heard("message.delivered");
  expect(delivery.message_id).toBe(messageId);
  expect(await statusOf(messageId)).toBe("delivered");
});

it("complaint@ is delivered, then reported as abuse", async () => {
  const messageId = await sendTo("complaint@simulator.pigeonhole.test");
  const { complaint } = await heard("message.complained");
  expect(complaint).toMatchObject({
    message_id: messageId,
    type: "abuse",
    recipients: ["complaint@simulator.pigeonhole.test"],
  });
  expect(await statusOf(messageId)).toBe("delivered");
});
