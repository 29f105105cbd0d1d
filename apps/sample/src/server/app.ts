import { serveStatic } from "@hono/node-server/serve-static";
import type { InboxClient } from "@pigeonhole/inbox";
import { Hono } from "hono";
import { streamSSE } from "hono/streaming";
import type { EventHub } from "./event-hub.ts";
import type { ForumAgents } from "./forum-agents.ts";
import { forumRoutes } from "./forum-routes.ts";
import { inboxRoutes } from "./inbox-routes.ts";
import { webhookRoute } from "./webhook-route.ts";

export const WEBHOOK_PATH = "/webhooks/inbox";

export interface SampleAppOptions {
  inbox: InboxClient;
  /** The agents the page acts as in the forum. */
  agents: ForumAgents;
  events: EventHub;
  /** The webhook's signing secret, once it is registered. */
  webhookSecret: () => string | undefined;
  /** Folder of the built page; without it only the routes are served. */
  pageRoot?: string;
}

/**
 * The sample's HTTP app: the page, the `/api` routes it calls (which call the two APIs with the server's keys),
 * the webhook the Inbox API delivers to, and `/api/events`, which pushes each arrival to the open pages.
 */
export function createSampleApp({ inbox, agents, events, webhookSecret, pageRoot }: SampleAppOptions) {
  const app = new Hono();
  app.route("/api/inbox", inboxRoutes(inbox, events));
  app.route("/api/forum", forumRoutes(agents, events));

  const onEvent = webhookRoute({
    secret: webhookSecret,
    onEvent(event) {
      if (event.event_type === "message.received") {
        const { message, thread } = event;
        events.publish({
          type: "message.received",
          inboxId: message.inbox_id,
          threadId: thread.thread_id,
          subject: message.subject,
          from: message.from,
        });
      }
    },
  });
  app.route(WEBHOOK_PATH, onEvent);

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
