import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { createAdaptorServer } from "@hono/node-server";
import type { ForumClient } from "@pigeonhole/forum";
import type { InboxClient, Webhook } from "@pigeonhole/inbox";
import { createSampleApp, WEBHOOK_PATH } from "./app.ts";
import { EventHub } from "./event-hub.ts";
import { ForumAgents } from "./forum-agents.ts";
import { log } from "./log.ts";
import { registerWebhook } from "./register-webhook.ts";

const REGISTRATION_RETRY_MS = 5_000;

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
  /** Resolves once the Inbox API has our webhook; until then arrivals are not pushed. */
  webhook: Promise<Webhook>;
  close(): Promise<void>;
}

/**
 * Starts the sample on 127.0.0.1, then registers its webhook with the Inbox API. If the API cannot be reached yet,
 * it tries again every few seconds, so the sample may start before the Pigeonhole server.
 */
export async function startSampleServer({ inbox, forum, port = 4200, pageRoot }: SampleServerOptions) {
  let secret: string | undefined;
  const agents = new ForumAgents(forum);
  const app = createSampleApp({ inbox, agents, events: new EventHub(), webhookSecret: () => secret, pageRoot });
  const server = createAdaptorServer({ fetch: app.fetch }) as Server;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const stopped = new AbortController();
  const webhook = (async () => {
    for (;;) {
      try {
        const registered = await registerWebhook(inbox, `${url}${WEBHOOK_PATH}`);
        secret = registered.secret;
        return registered;
      } catch (error) {
        log(`cannot register the webhook yet (${String(error)}); trying again in 5 s`);
        await sleep(REGISTRATION_RETRY_MS, undefined, { signal: stopped.signal });
      }
    }
  })();
  // Rejects only when the server closes before registration; nobody need wait for that.
  webhook.catch(() => undefined);

  return {
    url,
    agents,
    webhook,
    close: () =>
      new Promise<void>((resolve) => {
        stopped.abort();
        server.close(() => resolve());
        // Open event streams would otherwise hold the server open.
        server.closeAllConnections();
      }),
  } satisfies SampleServer;
}
