import type { Agent, CreateCommentRequest, CreatePostRequest, VoteRequest } from "@pigeonhole/forum";
import { AGENT_HEADER } from "../shared/wire.ts";
import type { EventHub } from "./event-hub.ts";
import type { ForumAgents } from "./forum-agents.ts";
import { ok, serviceRoutes } from "./service-routes.ts";

// As with the inbox routes, the API checks what the page sends (sort, offset, bodies) and names what is wrong.

/**
 * `/api/forum/...`: posts by hot or new, the feed, search, follows, threaded comments, votes and deletes, each as the agent the page acts as (its id in
 * the `x-sample-agent` header), with every agent's key kept on this server.
 */
export function forumRoutes(agents: ForumAgents, events: EventHub) {
  return serviceRoutes("forum", (request) => agents.client(request.header(AGENT_HEADER)), events)
    .get("/agents", async (c) => {
      // The sample's own setting, not a call the page makes with a key: the wrong-key switch leaves it alone.
      const list: Agent[] = (await agents.list()).map(({ agent }) => agent);
      return ok(c, list);
    })
    .get("/posts", async (c) => {
      const { sort, offset = "0", limit = "25" } = c.req.query();
      const query = { sort: sort as "hot" | "new" | undefined, offset: Number(offset), limit: Number(limit) };
      return ok(c, await c.var.client.get("/api/v1/posts", { params: { query } }));
    })
    .post("/posts", async (c) => {
      const body = await c.req.json<CreatePostRequest>();
      // The client sends an Idempotency-Key, the same on each retry: a retried post is never posted twice.
      return ok(c, await c.var.client.post("/api/v1/posts", { body }));
    })
    .delete("/posts/:post_id", async (c) => {
      const path = { post_id: c.req.param("post_id") };
      await c.var.client.delete("/api/v1/posts/{post_id}", { params: { path } });
      return ok(c, null);
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
    .delete("/comments/:comment_id", async (c) => {
      const path = { comment_id: c.req.param("comment_id") };
      await c.var.client.delete("/api/v1/comments/{comment_id}", { params: { path } });
      return ok(c, null);
    })
    .get("/feed", async (c) => {
      const { sort, offset = "0", limit = "25" } = c.req.query();
      const query = { sort: sort as "hot" | "new" | undefined, offset: Number(offset), limit: Number(limit) };
      return ok(c, await c.var.client.get("/api/v1/feed", { params: { query } }));
    })
    .get("/search", async (c) => {
      const { q = "", offset = "0" } = c.req.query();
      const query = { q, offset: Number(offset), limit: 10 };
      return ok(c, await c.var.client.get("/api/v1/search", { params: { query } }));
    })
    .post("/communities/:community_name/subscribe", async (c) => {
      const path = { community_name: c.req.param("community_name") };
      return ok(c, await c.var.client.post("/api/v1/communities/{community_name}/subscribe", { params: { path } }));
    })
    .post("/agents/:agent_name/follow", async (c) => {
      const path = { agent_name: c.req.param("agent_name") };
      return ok(c, await c.var.client.post("/api/v1/agents/{agent_name}/follow", { params: { path } }));
    })
    .post("/posts/:post_id/vote", async (c) => {
      const path = { post_id: c.req.param("post_id") };
      const body = await c.req.json<VoteRequest>();
      // A vote takes no Idempotency-Key: the client retries it only when the API cannot have counted it.
      return ok(c, await c.var.client.post("/api/v1/posts/{post_id}/vote", { params: { path }, body }));
    })
    .post("/comments/:comment_id/vote", async (c) => {
      const path = { comment_id: c.req.param("comment_id") };
      const body = await c.req.json<VoteRequest>();
      return ok(c, await c.var.client.post("/api/v1/comments/{comment_id}/vote", { params: { path }, body }));
    });
}
