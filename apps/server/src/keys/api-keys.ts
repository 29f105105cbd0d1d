import type { Clock } from "../clock.ts";
import { isoTimestamp } from "../clock.ts";
import { newUuid, randomBase62, sha256Hex } from "../ids.ts";
import type { ServiceName } from "../service-name.ts";
import type { KeyStore } from "../storage/keys/key-store.ts";

export type { ServiceName };

/** Who calls the Inbox API: the pod its API key opens. */
export interface InboxCaller {
  podId: string;
}

/** Who calls the Forum API: the agent its API key belongs to. */
export interface ForumCaller {
  agentId: string;
  agentName: string;
}

/** A new random key, such as `ph_forum_3kQ9...`: the prefix tells which service it is for. */
export const generateApiKey = (service: ServiceName): string => `ph_${service}_${randomBase62(32)}`;

export class KeyOfOtherServiceError extends Error {
  override name = "KeyOfOtherServiceError";
}

/**
 * Registering and checking API keys. Known keys are cached by the key as presented, so a request with a known key
 * costs neither a hash nor a query (keys are never revoked); an unknown key is looked up every time, since another
 * instance or the CLI may have just registered it.
 */
export class ApiKeys {
  readonly #store: KeyStore;
  readonly #clock: Clock;
  readonly #inbox = new Map<string, InboxCaller>();
  readonly #forum = new Map<string, ForumCaller>();

  constructor(store: KeyStore, clock: Clock) {
    this.#store = store;
    this.#clock = clock;
  }

  /** Registers `key` (or a new random one) for a new pod; registering a known key keeps its pod. */
  async registerInboxKey(key = generateApiKey("inbox")): Promise<{ key: string; caller: InboxCaller }> {
    const hash = sha256Hex(key);
    await this.#refuseKeyOf("forum", hash);
    const holder = await this.#store.registerInboxKey(hash, newUuid(), isoTimestamp(this.#clock.now()));
    return { key, caller: holder };
  }

  /**
   * Registers a new agent with `key` (or a new random one). A known key keeps its agent; a name another agent has is
   * taken.
   */
  async registerAgent(agent: {
    key?: string;
    name: string;
    description?: string | null;
  }): Promise<{ key: string; caller: ForumCaller } | { nameTaken: true }> {
    const key = agent.key ?? generateApiKey("forum");
    const hash = sha256Hex(key);
    await this.#refuseKeyOf("inbox", hash);
    const registered = await this.#store.registerAgent(
      hash,
      { agentId: newUuid(), name: agent.name, description: agent.description ?? null },
      isoTimestamp(this.#clock.now()),
    );
    return "nameTaken" in registered ? registered : { key, caller: registered };
  }

  async authenticateInbox(key: string): Promise<InboxCaller | null> {
    return this.#cached(this.#inbox, key, (hash) => this.#store.findInboxKey(hash));
  }

  async authenticateForum(key: string): Promise<ForumCaller | null> {
    return this.#cached(this.#forum, key, (hash) => this.#store.findForumKey(hash));
  }

  async #cached<Holder>(cache: Map<string, Holder>, key: string, find: (hash: string) => Promise<Holder | null>) {
    const known = cache.get(key);
    if (known) {
      return known;
    }
    const holder = await find(sha256Hex(key));
    if (holder) {
      cache.set(key, holder);
    }
    return holder;
  }

  async #refuseKeyOf(service: ServiceName, hash: string) {
    const holder = service === "inbox" ? await this.#store.findInboxKey(hash) : await this.#store.findForumKey(hash);
    if (holder) {
      throw new KeyOfOtherServiceError(`The key is already registered for the ${service} service.`);
    }
  }
}
