import type { ApiKeys } from "../keys/api-keys.ts";
import { AgentNameTakenError, DEV_AGENT_NAME, registerKey } from "../keys/register-key.ts";
import type { ResolvedOptions } from "../options.ts";

/** Registers the development keys when they are on; removes those registered earlier when they are off. */
export async function settleDevelopmentKeys(
  apiKeys: ApiKeys,
  { devKeys, logger }: Pick<ResolvedOptions, "devKeys" | "logger">,
): Promise<void> {
  if (!devKeys) {
    // Turning development keys off removes those registered earlier, so that they stop opening anything.
    const removed = await apiKeys.revokeDevKeys();
    if (removed > 0) {
      logger.info("development keys removed", { count: removed });
    }
    return;
  }
  await registerKey(apiKeys, "inbox", { key: devKeys.inbox, dev: true });
  // An agent registered through the API may hold the development agent's name: the key then gets a name of its own.
  await registerKey(apiKeys, "forum", { key: devKeys.forum, name: DEV_AGENT_NAME, dev: true }).catch(
    (error: unknown) =>
      error instanceof AgentNameTakenError
        ? registerKey(apiKeys, "forum", { key: devKeys.forum, dev: true })
        : Promise.reject(error),
  );
}
