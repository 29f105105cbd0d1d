import type { Clock } from "../clock.ts";
import { isoTimestamp } from "../clock.ts";
import { DEFAULT_COMMUNITY } from "../forum/default-community.ts";
import type { ForumRepository } from "../storage/forum-repository.ts";
import type { KeyOwner } from "../storage/key-repository.ts";
import type { ServiceName } from "../storage/schema.ts";
import type { ApiKeys } from "./api-keys.ts";

export interface RegisterKeyDependencies {
  apiKeys: ApiKeys;
  forumRepository: ForumRepository;
  clock: Clock;
}

/** Registers an API key and gives a new forum tenant its default community. Returns the key and its owner. */
export async function registerKey(
  deps: RegisterKeyDependencies,
  service: ServiceName,
  options: { key?: string; name?: string } = {},
): Promise<{ key: string; owner: KeyOwner }> {
  const registered = await deps.apiKeys.register(service, options);
  if (service === "forum") {
    await deps.forumRepository.ensureCommunity(DEFAULT_COMMUNITY, isoTimestamp(deps.clock.now()));
  }
  return registered;
}
