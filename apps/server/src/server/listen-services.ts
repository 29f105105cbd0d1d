import type { Hono } from "hono";
import type { ListenOptions, RunningServer } from "../http/listen.ts";
import { listen } from "../http/listen.ts";
import type { ServiceName } from "../service-name.ts";
import type { ServerParts } from "./server-parts.ts";

// Hono apps differ in their variable types; listening only needs `fetch`.
type FetchApp = Pick<Hono, "fetch">;

/**
 * Serves each service on its port, the inbox with its WebSocket upgrades. Each server is recorded in `parts` as soon
 * as it listens, so that a start failing on the next port closes it.
 */
export async function listenServices(
  parts: ServerParts,
  apps: Record<ServiceName, FetchApp>,
  onInboxUpgrade: ListenOptions["onUpgrade"],
): Promise<Record<ServiceName, RunningServer>> {
  const { config } = parts.context;
  const inbox = await listen(apps.inbox, config.host, config.inboxPort, { onUpgrade: onInboxUpgrade });
  parts.servers.push(inbox);
  const forum = await listen(apps.forum, config.host, config.forumPort);
  parts.servers.push(forum);
  return { inbox, forum };
}
