import { isoTimestamp } from "../clock.ts";
import { hotRank } from "../forum/hot-rank.ts";
import type { ApiKeys } from "../keys/api-keys.ts";
import type { Storage } from "../storage/open-storage.ts";
import type { ControllableClock } from "./controllable-clock.ts";
import type { FaultRegistry } from "./faults/fault-registry.ts";
import type { Resetter } from "./test-control-handlers.ts";

export interface ResetterOptions {
  storage: Pick<Storage, "reset" | "rateWindows">;
  apiKeys: ApiKeys;
  clock: ControllableClock;
  faults: FaultRegistry;
}

/** Reset as test control offers it: one key's data (an inbox pod's or a forum agent's), or everything. */
export function createResetter(options: ResetterOptions): Resetter {
  const { storage, apiKeys, clock, faults } = options;
  return {
    async wipeKey(apiKey) {
      const pod = await apiKeys.authenticateInbox(apiKey);
      if (pod) {
        await storage.reset.wipeInboxPod(pod.podId);
        await storage.rateWindows.forget(`:key:${pod.podId}`);
        return;
      }
      const agent = await apiKeys.authenticateForum(apiKey);
      if (agent) {
        await storage.reset.wipeForumAgent(agent.agentId, hotRank, isoTimestamp(clock.now()));
        await storage.rateWindows.forget(`:key:${agent.agentId}`);
      }
    },
    async wipeEverything() {
      faults.clear();
      await storage.reset.wipeEverything();
      await storage.rateWindows.forget();
      clock.reset();
    },
  };
}
