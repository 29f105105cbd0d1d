import { beforeEach, expect, it } from "vitest";
import { useLocalServer } from "./local-server.ts";
import {
  startReceiver,
  type WebhookEvent,
} from "./webhook-receiver.ts";

const { tc, inbox } = await useLocalServer();
const receiver = await startReceiver(inbox);

let webhookId = "";
beforeEach(async () => {
  receiver.received.length = 0;
  receiver.handled.clear();
  await inbox.post("/v0/inboxes", { body: { username: "ada" } });
  const webhook = await receiver.subscribe(["message.received"]);
  webhookId = webhook.webhook_id;
});

/** Someone writes to Ada: a message.received for the webhook. */
const mailAda = (subject: string) =>
  inbox.post("/v0/inboxes/{inbox_id}/messages", {
    params: { path: { inbox_id: "ada@pigeonhole.test" } },
    body: { to: "ada@pigeonhole.test", subject },
  });

const subjects = (events: WebhookEvent[]) =>
  events.map((event) =>
    event.event_type === "message.received"
      ? event.message.subject
      : "",
  );

it("retries a failed delivery when the clock passes its retry", async () => {
  await tc.faults.add({
    target: "webhook",
    match: { webhook_id: webhookId },
    action: { type: "fail", status: 503 },
  });
  await mailAda("Order 1042");

  // The delivery log shows the failed attempt (no request was sent)
  // and the next one, 5 s later.
  const deliveries = () =>
    inbox.get("/v0/webhooks/{webhook_id}/deliveries", {
      params: { path: { webhook_id: webhookId } },
    });
  await expect
    .poll(async () => (await deliveries()).deliveries[0]?.attempts)
    .toMatchObject([{ status_code: 503 }]);
  expect(receiver.received).toEqual([]);

  // Five seconds pass in no time: the retry is attempted at once.
  await tc.clock.advance({ seconds: 5 });
  const delivery = await tc.waitForWebhookDelivery({
    webhook_id: webhookId,
    status: "succeeded",
  });
  expect(
    delivery.attempts.map((attempt) => attempt.status_code),
  ).toEqual([503, 204]);
  expect(subjects(receiver.received)).toEqual(["Order 1042"]);
});

it("handles a delivery that arrives twice once", async () => {
  await tc.faults.add({
    target: "webhook",
    match: { event_type: "message.received" },
    action: { type: "duplicate" },
  });
  await mailAda("Order 1043");

  await expect.poll(() => receiver.received.length).toBe(2);
  const [first, second] = receiver.received;
  expect(second?.event_id).toBe(first?.event_id);
  expect(receiver.handled.size).toBe(1);
});

it("copes with deliveries out of order", async () => {
  // The next delivery waits until the one after it has been sent.
  await tc.faults.add({
    target: "webhook",
    match: { webhook_id: webhookId },
    action: { type: "hold" },
  });
  await mailAda("First");
  await mailAda("Second");

  await expect.poll(() => receiver.received.length).toBe(2);
  expect(subjects(receiver.received)).toEqual(["Second", "First"]);
});
