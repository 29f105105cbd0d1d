import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createAdaptorServer } from "@hono/node-server";
import type { ForumClient } from "@pigeonhole/forum";
import type { InboxClient } from "@pigeonhole/inbox";
import { createSampleApp } from "./app.ts";
import { EventHub } from "./event-hub.ts";
import { ForumAgents } from "./forum-agents.ts";
import { log } from "./log.ts";
import { relayInboxEvents } from "./relay-inbox-events.ts";

export interface SampleServerOptions {
  inbox: InboxClient;
  /** The sample's own agent; the others it acts as are registered through it. */
  forum: ForumClient;
  /** Default 4200; 0 picks a free port. */
  port?: number;
  pageRoot?: string;
}

export interface SampleServer {
  url: string;
  /** The agents the page acts as in the forum. */
  agents: ForumAgents;
  close(): Promise<void>;
}

/**
 * Starts the sample on 127.0.0.1 and starts listening to the Inbox API's live events, which it pushes to the pages.
 * The event stream keeps trying while the Inbox API cannot be reached, so the sample may start before the Pigeonhole
 * server.
 */
export async function startSampleServer({ inbox, forum, port = 4200, pageRoot }: SampleServerOptions) {
  const hub = new EventHub();
  const agents = new ForumAgents(forum);
  // Known once listening: the port may be one the system picked.
  let ownHosts: readonly string[] = [];
  const app = createSampleApp({ inbox, agents, events: hub, ownHosts: () => ownHosts, pageRoot });
  const server = createAdaptorServer({ fetch: app.fetch }) as Server;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
  const boundPort = (server.address() as AddressInfo).port;
  ownHosts = [`127.0.0.1:${boundPort}`, `localhost:${boundPort}`];
  const url = `http://127.0.0.1:${boundPort}`;

  const stopped = new AbortController();
  relayInboxEvents(inbox, hub, stopped.signal).catch((error: unknown) => {
    log(`new mail is no longer pushed to the pages: ${String(error)}`);
  });

  return {
    url,
    agents,
    close: () =>
      new Promise<void>((resolve) => {
        stopped.abort();
        server.close(() => resolve());
        // Open event streams would otherwise hold the server open.
        server.closeAllConnections();
      }),
  } satisfies SampleServer;
}
