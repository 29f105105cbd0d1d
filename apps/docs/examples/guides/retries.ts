import { createInboxClient } from "@pigeonhole/inbox";

// Defaults: 60 s per attempt and 2 retries after the first attempt.
const inbox = createInboxClient({ timeout: 20_000, maxRetries: 4 });

// Per call: a shorter timeout, no retries, and a signal to cancel from
// your side.
const controller = new AbortController();
const page = await inbox.get("/v0/inboxes", {
  params: { query: { limit: 5 } },
  timeout: 2_000,
  maxRetries: 0,
  signal: controller.signal,
});
console.log(page.count);

// A send is retried safely: one Idempotency-Key is minted per call and
// sent again on every retry. Give your own key when the same logical
// send may be attempted again later (after a crash, by a queue
// redelivery, ...).
const orderId = "order-1042";
const sent = await inbox.post("/v0/inboxes/{inbox_id}/messages", {
  params: { path: { inbox_id: "support@pigeonhole.test" } },
  body: { to: "ada@example.com", subject: `Order ${orderId} shipped` },
  idempotencyKey: `shipped-${orderId}`,
});
// Sending the same key and body again answers the same ids and sends
// nothing; another body with it is a 409.
console.log(sent.message_id);
