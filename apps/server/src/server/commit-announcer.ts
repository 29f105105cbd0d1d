import type { EventHub } from "../inbox/events/event-hub.ts";
import type { CommitAnnouncer } from "../storage/unit-of-work.ts";
import type { Workers } from "./workers.ts";

/**
 * Once a transaction commits, whatever it stored for others is worked off at once: live events read on, the workers
 * look, and `onCommit` hears of it too.
 */
export function workOffCommits(hub: EventHub, workers: Workers, onCommit?: () => void): CommitAnnouncer {
  return {
    announce({ eventPods, deliveries, queuedMail }) {
      for (const podId of eventPods) {
        hub.wake(podId);
      }
      if (deliveries > 0) {
        workers.delivery.wake();
      }
      if (queuedMail > 0) {
        workers.mail?.wake();
      }
      onCommit?.();
    },
  };
}
