import type { EventHub } from "../inbox/events/event-hub.ts";
import { EventStream } from "../inbox/events/event-stream.ts";
import { compileSubscriptionParser } from "../inbox/events/subscription.ts";
import { loadSpecBundle } from "../spec/spec-bundle.ts";
import type { EventNotifications } from "../storage/postgres/event-notifications.ts";
import type { ServerParts } from "./server-parts.ts";
import type { StartContext } from "./start-context.ts";

/**
 * Starts live events: the stream WebSocket clients read, and the hub, woken by this instance's commits and by other
 * instances' through the database (`onCommit` hears of those too). What it starts is recorded in `parts`.
 */
export function startLiveEvents(parts: ServerParts, onCommit?: () => void): EventStream {
  const { context, hub, pruner } = parts;
  const eventStream = createEventStream(context, hub);
  parts.eventStream = eventStream;
  parts.notifications = listenToOtherInstances(context, hub, onCommit);
  hub.start();
  pruner.start();
  return eventStream;
}

function createEventStream({ config, storage, clock }: StartContext, hub: EventHub): EventStream {
  return new EventStream({
    hub,
    log: storage.events,
    parseSubscription: compileSubscriptionParser(loadSpecBundle("inbox")),
    logger: config.logger,
    clock,
    limits: { connectionsPerKey: config.websocketConnectionsPerKey },
  });
}

/** Another instance's commits: live events, and `onCommit`, hear of them as of this instance's own. */
function listenToOtherInstances(
  { config, storage }: StartContext,
  hub: EventHub,
  onCommit?: () => void,
): EventNotifications {
  return storage.listenForEvents(
    (podId) => {
      hub.wake(podId);
      onCommit?.();
    },
    () => {
      hub.wakeAll();
      onCommit?.();
    },
    (error) => config.logger.warn("event notifications connection lost", { error: error.message }),
  );
}
