import type { Clock } from "../clock.ts";
import { isoTimestamp } from "../clock.ts";
import { newUuid, randomBase62, sha256Hex } from "../ids.ts";
import type { ServiceName } from "../service-name.ts";
import { KEY_ID } from "../storage/keys/key-id.ts";
import type { KeyRecord, KeyStore, PodKeyPosition, PodKeyRecord } from "../storage/keys/key-store.ts";
import { KnownKeys } from "./known-keys.ts";

export type { KeyRecord, PodKeyPosition, PodKeyRecord, ServiceName };

/** Characters of a new key listed as its `prefix` after `ph_inbox_`: enough to tell keys apart, too few to guess. */
const PREFIX_RANDOM_CHARACTERS = 4;

/** Who calls the Inbox API: the pod its API key opens. */
export interface InboxCaller {
  podId: string;
  /** The id of the key the request was made with (`key_...`). */
  keyId?: string;
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

export class UnknownPodError extends Error {
  override name = "UnknownPodError";
}

/** How a key is registered: as a development key or not. */
export interface RegisterOptions {
  /** A development key: a server started without development keys removes it. Default false. */
  dev?: boolean;
}

/**
 * Registering, checking and revoking API keys. Known keys are cached by the key as presented for at most a second
 * (see KnownKeys), so a request with a known key costs neither a hash nor a query, and a key revoked anywhere is
 * refused here within that second; an unknown key is looked up every time, since another instance or the CLI may
 * have just registered it.
 */
export class ApiKeys {
  readonly #store: KeyStore;
  readonly #clock: Clock;
  readonly #inbox: KnownKeys<InboxCaller>;
  readonly #forum: KnownKeys<ForumCaller>;

  constructor(store: KeyStore, clock: Clock) {
    this.#store = store;
    this.#clock = clock;
    this.#inbox = new KnownKeys(clock, (hash) => store.findInboxKey(hash));
    this.#forum = new KnownKeys(clock, (hash) => store.findForumKey(hash));
  }

  /**
   * Registers `key` (or a new random one) for a new pod, or for the existing pod `podId` (a second key, to rotate
   * the first without downtime); registering a known key keeps its pod.
   */
  async registerInboxKey(
    key = generateApiKey("inbox"),
    options: RegisterOptions & { podId?: string } = {},
  ): Promise<{ key: string; caller: InboxCaller }> {
    const hash = sha256Hex(key);
    await this.#refuseKeyOf("forum", hash);
    if (options.podId !== undefined && !(await this.#store.podExists(options.podId))) {
      throw new UnknownPodError(`No pod ${options.podId}: keys list shows the pod of every inbox key.`);
    }
    const holder = await this.#store.registerInboxKey(
      hash,
      options.podId ?? newUuid(),
      isoTimestamp(this.#clock.now()),
      { dev: options.dev ?? false },
    );
    return { key, caller: holder };
  }

  /**
   * Registers a new agent with `key` (or a new random one). A known key keeps its agent; a name another agent has is
   * taken.
   */
  async registerAgent(
    agent: {
      key?: string;
      name: string;
      description?: string | null;
    },
    options: RegisterOptions = {},
  ): Promise<{ key: string; caller: ForumCaller } | { nameTaken: true }> {
    const key = agent.key ?? generateApiKey("forum");
    const hash = sha256Hex(key);
    await this.#refuseKeyOf("inbox", hash);
    const registered = await this.#store.registerAgent(
      hash,
      { agentId: newUuid(), name: agent.name, description: agent.description ?? null },
      isoTimestamp(this.#clock.now()),
      { dev: options.dev ?? false },
    );
    return "nameTaken" in registered ? registered : { key, caller: registered };
  }

  async authenticateInbox(key: string): Promise<InboxCaller | null> {
    return this.#inbox.get(key);
  }

  async authenticateForum(key: string): Promise<ForumCaller | null> {
    return this.#forum.get(key);
  }

  /** Every registered key (of one service, or both), without the keys themselves. */
  listKeys(service?: ServiceName): Promise<KeyRecord[]> {
    return this.#store.listKeys(service);
  }

  /** Revokes a key named by its id (`key_...`) or given itself; answers what was revoked, or null. */
  async revoke(keyOrId: string): Promise<KeyRecord | null> {
    // An id is tried as an id first; anything else, or an id that matches nothing, as the key itself.
    const revoked =
      (KEY_ID.test(keyOrId) ? await this.#store.revokeKey({ keyId: keyOrId }) : null) ??
      (await this.#store.revokeKey({ keyHash: sha256Hex(keyOrId) }));
    this.#forgetAll();
    return revoked;
  }

  /**
   * A new key for the existing pod `podId`, named `name`: answered once, stored as its hash. Refused (`limitReached`)
   * when the pod has `maxPerPod` keys already.
   */
  async createPodKey(
    podId: string,
    name: string | null,
    maxPerPod: number,
  ): Promise<{ key: string; record: PodKeyRecord } | { limitReached: number }> {
    const key = generateApiKey("inbox");
    const prefix = key.slice(0, "ph_inbox_".length + PREFIX_RANDOM_CHARACTERS);
    const registered = await this.#store.registerPodKey(
      sha256Hex(key),
      podId,
      isoTimestamp(this.#clock.now()),
      { dev: false, name, prefix },
      maxPerPod,
    );
    if ("limitReached" in registered) {
      return registered;
    }
    const record = await this.#store.findPodKey(podId, registered.keyId);
    if (!record) {
      throw new Error("The API key was not stored.");
    }
    return { key, record };
  }

  listPodKeys(podId: string, limit: number, after?: PodKeyPosition): Promise<PodKeyRecord[]> {
    return this.#store.listPodKeys(podId, limit, after);
  }

  findPodKey(podId: string, keyId: string): Promise<PodKeyRecord | null> {
    return this.#store.findPodKey(podId, keyId);
  }

  /** Deletes one of the pod's keys; this instance refuses it from the next request, every other within a second. */
  async deletePodKey(podId: string, keyId: string): Promise<PodKeyRecord | null> {
    const deleted = await this.#store.deletePodKey(podId, keyId);
    this.#forgetAll();
    return deleted;
  }

  /** Revokes every development key (a server started without them); answers how many there were. */
  async revokeDevKeys(): Promise<number> {
    const count = await this.#store.revokeDevKeys();
    this.#forgetAll();
    return count;
  }

  #forgetAll() {
    this.#inbox.clear();
    this.#forum.clear();
  }

  async #refuseKeyOf(service: ServiceName, hash: string) {
    const holder = service === "inbox" ? await this.#store.findInboxKey(hash) : await this.#store.findForumKey(hash);
    if (holder) {
      throw new KeyOfOtherServiceError(`The key is already registered for the ${service} service.`);
    }
  }
}
