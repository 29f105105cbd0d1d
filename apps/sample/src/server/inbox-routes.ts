import type { CreateInboxRequest, InboxClient, SendMessageRequest } from "@pigeonhole/inbox";
import type { EventHub } from "./event-hub.ts";
import { ok, serviceRoutes } from "./service-routes.ts";

// Bodies from the page go to the API as they are: the API checks every field and answers 400 naming the field,
// which the page shows. So the casts below need no checks of their own.

/** `/api/inbox/...`: inboxes, threads and sending, with the Inbox API key kept on this server. */
export function inboxRoutes(inbox: InboxClient, events: EventHub) {
  return serviceRoutes("inbox", () => inbox, events)
    .get("/inboxes", async (c) => {
      // Every inbox of the key, across pages (a sample has few).
      return ok(c, await c.var.client.paginate("/v0/inboxes", { params: { query: { limit: 100 } } }).toArray(500));
    })
    .post("/inboxes", async (c) => {
      const body = await c.req.json<CreateInboxRequest>();
      return ok(c, await c.var.client.post("/v0/inboxes", { body }));
    })
    .get("/inboxes/:inbox_id/threads", async (c) => {
      const path = { inbox_id: c.req.param("inbox_id") };
      return ok(
        c,
        await c.var.client.get("/v0/inboxes/{inbox_id}/threads", { params: { path, query: { limit: 50 } } }),
      );
    })
    .get("/inboxes/:inbox_id/threads/:thread_id", async (c) => {
      const path = { inbox_id: c.req.param("inbox_id"), thread_id: c.req.param("thread_id") };
      return ok(c, await c.var.client.get("/v0/inboxes/{inbox_id}/threads/{thread_id}", { params: { path } }));
    })
    .post("/inboxes/:inbox_id/messages", async (c) => {
      const path = { inbox_id: c.req.param("inbox_id") };
      const body = await c.req.json<SendMessageRequest>();
      // The client adds an Idempotency-Key and reuses it on every retry, so a retried send is delivered once.
      return ok(c, await c.var.client.post("/v0/inboxes/{inbox_id}/messages", { params: { path }, body }));
    });
}
