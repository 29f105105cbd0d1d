import type { Clock } from "../clock.ts";
import { isoTimestamp } from "../clock.ts";
import { newUuid, randomBase62, sha256Hex } from "../ids.ts";
import type { KeyOwner, KeyRepository } from "../storage/key-repository.ts";
import type { ServiceName } from "../storage/schema.ts";

export const DEFAULT_AGENT_NAME = "pigeonhole-agent";

/** A new random key, such as `ph_forum_3kQ9...`: the prefix tells which service it is for. */
export const generateApiKey = (service: ServiceName): string => `ph_${service}_${randomBase62(32)}`;

export interface ApiKeys {
  /** Registers `key` (or a new random one) for a service and returns it. Registering a known key keeps its tenant. */
  register(service: ServiceName, options?: { key?: string; name?: string }): Promise<{ key: string; owner: KeyOwner }>;
  /**
   * The owner of a key of this service, or null. Known keys are cached by the key as presented, so a request with
   * a known key costs neither a hash nor a query (keys are never revoked); an unknown key is looked up every time,
   * since another process (`keys create`) may register it.
   */
  authenticate(service: ServiceName, key: string): Promise<KeyOwner | null>;
}

export function createApiKeys(repository: KeyRepository, clock: Clock): ApiKeys {
  const cache = new Map<string, KeyOwner>();
  return {
    async register(service, options = {}) {
      const key = options.key ?? generateApiKey(service);
      const owner = await repository.register(
        sha256Hex(key),
        {
          service,
          tenantId: newUuid(),
          agentName: service === "forum" ? (options.name ?? DEFAULT_AGENT_NAME) : undefined,
        },
        isoTimestamp(clock.now()),
      );
      if (owner.service !== service) {
        throw new Error(`The key is already registered for the ${owner.service} service.`);
      }
      return { key, owner };
    },
    async authenticate(service, key) {
      let owner = cache.get(key);
      if (!owner) {
        owner = (await repository.findByHash(sha256Hex(key))) ?? undefined;
        if (owner) {
          cache.set(key, owner);
        }
      }
      return owner && owner.service === service ? owner : null;
    },
  };
}
