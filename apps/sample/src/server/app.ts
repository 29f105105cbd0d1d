import { serveStatic } from "@hono/node-server/serve-static";
import type { InboxClient } from "@pigeonhole/inbox";
import { Hono } from "hono";
import { streamSSE } from "hono/streaming";
import type { EventHub } from "./event-hub.ts";
import type { ForumAgents } from "./forum-agents.ts";
import { forumRoutes } from "./forum-routes.ts";
import { inboxRoutes } from "./inbox-routes.ts";
import { sameOriginOnly } from "./same-origin.ts";

export interface SampleAppOptions {
  inbox: InboxClient;
  /** The agents the page acts as in the forum. */
  agents: ForumAgents;
  events: EventHub;
  /** The `Host` values the sample answers to, such as `127.0.0.1:4200`; its page's origin is `http://` and one. */
  ownHosts: () => readonly string[];
  /** Folder of the built page; without it only the routes are served. */
  pageRoot?: string;
}

/**
 * The sample's HTTP app: the page, the `/api` routes it calls (which call the two APIs with the server's keys), and
 * `/api/events`, which pushes each arrival and each client retry to the open pages.
 */
export function createSampleApp({ inbox, agents, events, ownHosts, pageRoot }: SampleAppOptions) {
  const app = new Hono();
  // Before the routes, which act with the API keys this server holds.
  app.use("/api/inbox/*", sameOriginOnly("inbox", ownHosts));
  app.use("/api/forum/*", sameOriginOnly("forum", ownHosts));
  app.use("/api/events", sameOriginOnly("inbox", ownHosts));
  app.route("/api/inbox", inboxRoutes(inbox, events));
  app.route("/api/forum", forumRoutes(agents, events));

  app.get("/api/events", (c) =>
    streamSSE(c, async (stream) => {
      const unsubscribe = events.subscribe((event) => {
        void stream.writeSSE({ data: JSON.stringify(event) });
      });
      // Held open until the page closes the connection.
      await new Promise<void>((resolve) => stream.onAbort(resolve));
      unsubscribe();
    }),
  );

  if (pageRoot !== undefined) {
    app.use("/*", serveStatic({ root: pageRoot }));
  }
  return app;
}
