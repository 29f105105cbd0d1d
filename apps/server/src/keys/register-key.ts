import type { Clock } from "../clock.ts";
import { isoTimestamp } from "../clock.ts";
import { DEFAULT_COMMUNITY } from "../forum/default-community.ts";
import { toCommunityRow } from "../forum/records.ts";
import type { ForumStore } from "../storage/forum/forum-store.ts";
import type { ApiKeys, ServiceName } from "./api-keys.ts";

export interface RegisterKeyDependencies {
  apiKeys: ApiKeys;
  forum: ForumStore;
  clock: Clock;
}

/** Registers an API key of either service and gives a new forum agent its default community; answers the key. */
export async function registerKey(
  deps: RegisterKeyDependencies,
  service: ServiceName,
  options: { key?: string; name?: string } = {},
): Promise<string> {
  if (service === "inbox") {
    return (await deps.apiKeys.registerInboxKey(options.key)).key;
  }
  const { key } = await deps.apiKeys.registerForumKey(options.key, options.name);
  await deps.forum.ensureCommunity(toCommunityRow(DEFAULT_COMMUNITY), isoTimestamp(deps.clock.now()));
  return key;
}
