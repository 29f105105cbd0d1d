import type { CreateCommentRequest, CreatePostRequest, ForumClient, VoteRequest } from "@pigeonhole/forum";
import type { EventHub } from "./event-hub.ts";
import { ok, serviceRoutes } from "./service-routes.ts";

// As with the inbox routes, the API checks what the page sends (sort, offset, bodies) and names what is wrong.

/** `/api/forum/...`: posts by hot or new, comments and votes, with the Forum API key kept on this server. */
export function forumRoutes(forum: ForumClient, events: EventHub) {
  return serviceRoutes("forum", forum, events)
    .get("/posts", async (c) => {
      const { sort, offset = "0", limit = "25" } = c.req.query();
      const query = { sort: sort as "hot" | "new" | undefined, offset: Number(offset), limit: Number(limit) };
      return ok(c, await c.var.client.get("/api/v1/posts", { params: { query } }));
    })
    .post("/posts", async (c) => {
      const body = await c.req.json<CreatePostRequest>();
      return ok(c, await c.var.client.post("/api/v1/posts", { body }));
    })
    .get("/posts/:post_id/comments", async (c) => {
      const path = { post_id: c.req.param("post_id") };
      return ok(
        c,
        await c.var.client.get("/api/v1/posts/{post_id}/comments", { params: { path, query: { limit: 100 } } }),
      );
    })
    .post("/posts/:post_id/comments", async (c) => {
      const path = { post_id: c.req.param("post_id") };
      const body = await c.req.json<CreateCommentRequest>();
      return ok(c, await c.var.client.post("/api/v1/posts/{post_id}/comments", { params: { path }, body }));
    })
    .post("/posts/:post_id/vote", async (c) => {
      const path = { post_id: c.req.param("post_id") };
      const body = await c.req.json<VoteRequest>();
      // The Forum API has no idempotency keys: the client retries a vote only when the API cannot have counted it.
      return ok(c, await c.var.client.post("/api/v1/posts/{post_id}/vote", { params: { path }, body }));
    });
}
