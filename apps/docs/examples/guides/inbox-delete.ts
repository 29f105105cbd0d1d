import { createInboxClient, NotFoundError } from "@pigeonhole/inbox";

const inbox = createInboxClient();

// The customer's inbox goes with its messages, threads and pending
// webhook deliveries; its address is free to create again.
await inbox.delete("/v0/inboxes/{inbox_id}", {
  params: { path: { inbox_id: "ada@pigeonhole.test" } },
});

try {
  await inbox.get("/v0/inboxes/{inbox_id}", {
    params: { path: { inbox_id: "ada@pigeonhole.test" } },
  });
} catch (error) {
  if (!(error instanceof NotFoundError)) {
    throw error;
  }
  console.log("ada@pigeonhole.test:", error.status); // 404
}

// What she sent stays with the inboxes that received it.
const orders = await inbox.get("/v0/inboxes/{inbox_id}/messages", {
  params: {
    path: { inbox_id: "support@pigeonhole.test" },
    query: { labels: ["orders", "received"] },
  },
});
console.log(`support still holds ${orders.count} of her orders`);
