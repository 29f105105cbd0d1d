import { createTestControl } from "@pigeonhole/test-control";

const tc = createTestControl();

const { now } = await tc.clock.get();
// ... a message arrives, and its event is delivered to the webhook ...

const delivery = await tc.waitForWebhookDelivery({
  webhook_id: "wh_9Kx3Lm7Qp2Rt5Vn8",
  event_type: "message.received",
  since: now,
});
for (const attempt of delivery.attempts) {
  console.log(
    attempt.attempted_at,
    attempt.status_code ?? attempt.error,
    `${attempt.latency_ms} ms`,
  );
}
