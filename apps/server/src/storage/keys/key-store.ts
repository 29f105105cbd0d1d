import type { ServiceName } from "../../service-name.ts";
import { cappedInsert } from "../capped-insert.ts";
import type { ServerDatabase } from "../database.ts";
import { PreparedQuery } from "../prepared-query.ts";
import type { SqlDialect } from "../sql-dialect.ts";
import { keyIdOf } from "./key-id.ts";

/** A registered key as `keys list` shows it: never the key, nor its hash. */
export interface KeyRecord {
  keyId: string;
  service: ServiceName;
  /** The pod an inbox key opens. */
  podId: string | null;
  /** The agent a forum key belongs to. */
  agentName: string | null;
  createdAt: string;
  dev: boolean;
}

/** How a key is registered: as a development key (removed when a server starts without them) or not. */
export interface KeyRegistration {
  dev: boolean;
  /** The name the key is listed under (keys created over the API). */
  name?: string | null;
  /** The visible start of the key, listed so that its holder recognises it. */
  prefix?: string | null;
}

/** An inbox key as its own pod sees it over the API: never the key, nor its hash. */
export interface PodKeyRecord {
  keyId: string;
  podId: string;
  name: string | null;
  prefix: string | null;
  createdAt: string;
}

/** Where a list of a pod's keys stands: the last key listed, newest first by `(created_at, key_id)`. */
export interface PodKeyPosition {
  createdAt: string;
  keyId: string;
}

/** A new key of an existing pod: registered, or refused because the pod holds its most keys already. */
export type RegisterPodKeyResult = { keyId: string } | { limitReached: number };

/** API keys by the SHA-256 of the key: the keys themselves are never stored. */
export interface KeyStore {
  /** The pod a key opens, and the key's id. */
  findInboxKey(keyHash: string): Promise<{ podId: string; keyId: string } | null>;
  findForumKey(keyHash: string): Promise<{ agentId: string; agentName: string } | null>;
  /**
   * Registers an Inbox API key for pod `podId` (a new pod, or one that has keys already); a hash already registered
   * keeps its pod, which is answered. Registered as a development key, it is marked as one.
   */
  registerInboxKey(
    keyHash: string,
    podId: string,
    at: string,
    registration?: KeyRegistration,
  ): Promise<{ podId: string; keyId: string }>;
  /**
   * Registers one more key (never seen before) for the existing pod `podId`, unless the pod has `maxPerPod` keys
   * already: exact when creates race, on one instance or several.
   */
  registerPodKey(
    keyHash: string,
    podId: string,
    at: string,
    registration: KeyRegistration,
    maxPerPod: number,
  ): Promise<RegisterPodKeyResult>;
  /** Whether a pod exists: a key opens it, or it holds inboxes (its keys may all have been revoked). */
  podExists(podId: string): Promise<boolean>;
  /**
   * Registers a new agent with the hash of its forum key. A hash already registered keeps its agent, which is
   * answered; a name another agent has is taken.
   */
  registerAgent(
    keyHash: string,
    agent: { agentId: string; name: string; description: string | null },
    at: string,
    registration?: KeyRegistration,
  ): Promise<{ agentId: string; agentName: string } | { nameTaken: true }>;
  /** Every key of both services (or of one), oldest first. */
  listKeys(service?: ServiceName): Promise<KeyRecord[]>;
  /**
   * Revokes the key with this id or this hash: an inbox key is deleted, a forum agent loses its key and keeps its
   * content. Answers what was revoked, or null when no key matched.
   */
  revokeKey(match: { keyId: string } | { keyHash: string }): Promise<KeyRecord | null>;
  /** Revokes every development key of both services; answers how many there were. */
  revokeDevKeys(): Promise<number>;
  /** Up to `limit` of one pod's inbox keys, newest first, after `after`. */
  listPodKeys(podId: string, limit: number, after?: PodKeyPosition): Promise<PodKeyRecord[]>;
  /** One of the pod's inbox keys by its id; null for another pod's key or none. */
  findPodKey(podId: string, keyId: string): Promise<PodKeyRecord | null>;
  /** Deletes one of the pod's inbox keys by its id; answers it, or null for another pod's key or none. */
  deletePodKey(podId: string, keyId: string): Promise<PodKeyRecord | null>;
}

const NOT_DEV: KeyRegistration = { dev: false };

// The lookups of a key not seen in the last second (see known-keys.ts), prepared once: built and compiled by Kysely
// on every call, such a lookup costs more than SQLite takes to run it.
const inboxKeyByHash = new PreparedQuery((db, p: { keyHash: string }) =>
  db.selectFrom("inbox_api_keys").select(["pod_id", "key_id"]).where("key_hash", "=", p.keyHash),
);
const forumKeyByHash = new PreparedQuery((db, p: { keyHash: string }) =>
  db.selectFrom("forum_agents").select(["agent_id", "name"]).where("key_hash", "=", p.keyHash),
);

export class SqlKeyStore implements KeyStore {
  readonly #db: ServerDatabase;
  readonly #dialect: SqlDialect;

  constructor(db: ServerDatabase, dialect: SqlDialect) {
    this.#db = db;
    this.#dialect = dialect;
  }

  async findInboxKey(keyHash: string) {
    const row = await inboxKeyByHash.first(this.#db, { keyHash });
    return row ? { podId: row.pod_id, keyId: row.key_id } : null;
  }

  async findForumKey(keyHash: string) {
    const row = await forumKeyByHash.first(this.#db, { keyHash });
    return row ? { agentId: row.agent_id, agentName: row.name } : null;
  }

  async registerInboxKey(keyHash: string, podId: string, at: string, registration: KeyRegistration = NOT_DEV) {
    // Another instance may register the same key at the same moment: the first insert wins, both answer its pod.
    await this.#db
      .insertInto("inbox_api_keys")
      .values({
        key_hash: keyHash,
        key_id: keyIdOf(keyHash),
        pod_id: podId,
        created_at: at,
        dev_key: registration.dev ? 1 : 0,
        name: registration.name ?? null,
        prefix: registration.prefix ?? null,
      })
      .onConflict((oc) => oc.column("key_hash").doNothing())
      .execute();
    if (registration.dev) {
      // A development key registered before keys were marked is marked now, so that turning them off removes it.
      await this.#db.updateTable("inbox_api_keys").set({ dev_key: 1 }).where("key_hash", "=", keyHash).execute();
    }
    const stored = await this.findInboxKey(keyHash);
    if (!stored) {
      throw new Error("The API key was not stored.");
    }
    return stored;
  }

  /**
   * The pod's key rows are locked while they are counted, as for its webhooks, list entries and drafts (see
   * capped-insert.ts): creates racing from several instances wait for each other, and each counts the keys the others
   * committed.
   */
  registerPodKey(
    keyHash: string,
    podId: string,
    at: string,
    registration: KeyRegistration,
    maxPerPod: number,
  ): Promise<RegisterPodKeyResult> {
    return this.#db.transaction().execute((trx) =>
      cappedInsert(
        trx,
        this.#dialect,
        { table: "inbox_api_keys", podId, maxPerPod },
        {
          async insert() {
            const keyId = keyIdOf(keyHash);
            await trx
              .insertInto("inbox_api_keys")
              .values({
                key_hash: keyHash,
                key_id: keyId,
                pod_id: podId,
                created_at: at,
                dev_key: registration.dev ? 1 : 0,
                name: registration.name ?? null,
                prefix: registration.prefix ?? null,
              })
              .execute();
            return { keyId };
          },
        },
      ),
    );
  }

  async podExists(podId: string) {
    const [key, inbox] = await Promise.all([
      this.#db.selectFrom("inbox_api_keys").select("pod_id").where("pod_id", "=", podId).executeTakeFirst(),
      this.#db.selectFrom("inboxes").select("pod_id").where("pod_id", "=", podId).executeTakeFirst(),
    ]);
    return key !== undefined || inbox !== undefined;
  }

  async registerAgent(
    keyHash: string,
    agent: { agentId: string; name: string; description: string | null },
    at: string,
    registration: KeyRegistration = NOT_DEV,
  ) {
    await this.#db
      .insertInto("forum_agents")
      .values({
        agent_id: agent.agentId,
        name: agent.name,
        description: agent.description,
        key_hash: keyHash,
        key_id: keyIdOf(keyHash),
        created_at: at,
        dev_key: registration.dev ? 1 : 0,
      })
      .onConflict((oc) => oc.doNothing())
      .execute();
    if (registration.dev) {
      await this.#db.updateTable("forum_agents").set({ dev_key: 1 }).where("key_hash", "=", keyHash).execute();
    }
    // Either this insert, an earlier registration of the same key, or another agent holding the name.
    return (await this.findForumKey(keyHash)) ?? { nameTaken: true as const };
  }

  async listKeys(service?: ServiceName) {
    const inbox =
      service === "forum"
        ? []
        : await this.#db
            .selectFrom("inbox_api_keys")
            .select(["key_id", "pod_id", "created_at", "dev_key"])
            .orderBy("created_at")
            .orderBy("key_id")
            .execute();
    const forum =
      service === "inbox"
        ? []
        : await this.#db
            .selectFrom("forum_agents")
            .select(["key_id", "name", "created_at", "dev_key"])
            .where("key_id", "is not", null)
            .orderBy("created_at")
            .orderBy("key_id")
            .execute();
    return [
      ...inbox.map((row) => inboxRecord(row)),
      ...forum.map((row) => forumRecord({ ...row, key_id: row.key_id ?? "" })),
    ];
  }

  async revokeKey(match: { keyId: string } | { keyHash: string }) {
    const [column, value] =
      "keyId" in match ? (["key_id", match.keyId] as const) : (["key_hash", match.keyHash] as const);
    const inbox = await this.#db
      .deleteFrom("inbox_api_keys")
      .where(column, "=", value)
      .returning(["key_id", "pod_id", "created_at", "dev_key"])
      .executeTakeFirst();
    if (inbox) {
      return inboxRecord(inbox);
    }
    const agent = await this.#db
      .selectFrom("forum_agents")
      .select(["agent_id", "key_id", "name", "created_at", "dev_key"])
      .where(column, "=", value)
      .executeTakeFirst();
    if (!agent?.key_id) {
      return null;
    }
    // Compared again on the key: another process may have revoked it meanwhile, and a new key have taken its place.
    const revoked = await this.#db
      .updateTable("forum_agents")
      .set({ key_hash: null, key_id: null, dev_key: 0 })
      .where("agent_id", "=", agent.agent_id)
      .where("key_id", "=", agent.key_id)
      .executeTakeFirst();
    return revoked.numUpdatedRows > 0n ? forumRecord({ ...agent, key_id: agent.key_id }) : null;
  }

  async revokeDevKeys() {
    const inbox = await this.#db.deleteFrom("inbox_api_keys").where("dev_key", "=", 1).executeTakeFirst();
    const forum = await this.#db
      .updateTable("forum_agents")
      .set({ key_hash: null, key_id: null, dev_key: 0 })
      .where("dev_key", "=", 1)
      .executeTakeFirst();
    return Number(inbox.numDeletedRows) + Number(forum.numUpdatedRows);
  }

  async listPodKeys(podId: string, limit: number, after?: PodKeyPosition) {
    let query = this.#db.selectFrom("inbox_api_keys").select(POD_KEY_COLUMNS).where("pod_id", "=", podId);
    if (after) {
      query = query.where((eb) =>
        eb.or([
          eb("created_at", "<", after.createdAt),
          eb.and([eb("created_at", "=", after.createdAt), eb("key_id", "<", after.keyId)]),
        ]),
      );
    }
    const rows = await query.orderBy("created_at", "desc").orderBy("key_id", "desc").limit(limit).execute();
    return rows.map(podKeyRecord);
  }

  async findPodKey(podId: string, keyId: string) {
    const row = await this.#db
      .selectFrom("inbox_api_keys")
      .select(POD_KEY_COLUMNS)
      .where("pod_id", "=", podId)
      .where("key_id", "=", keyId)
      .executeTakeFirst();
    return row ? podKeyRecord(row) : null;
  }

  async deletePodKey(podId: string, keyId: string) {
    const row = await this.#db
      .deleteFrom("inbox_api_keys")
      .where("pod_id", "=", podId)
      .where("key_id", "=", keyId)
      .returning(POD_KEY_COLUMNS)
      .executeTakeFirst();
    return row ? podKeyRecord(row) : null;
  }
}

const POD_KEY_COLUMNS = ["key_id", "pod_id", "name", "prefix", "created_at"] as const;

const podKeyRecord = (row: {
  key_id: string;
  pod_id: string;
  name: string | null;
  prefix: string | null;
  created_at: string;
}): PodKeyRecord => ({
  keyId: row.key_id,
  podId: row.pod_id,
  name: row.name,
  prefix: row.prefix,
  createdAt: row.created_at,
});

const inboxRecord = (row: { key_id: string; pod_id: string; created_at: string; dev_key: number }): KeyRecord => ({
  keyId: row.key_id,
  service: "inbox",
  podId: row.pod_id,
  agentName: null,
  createdAt: row.created_at,
  dev: row.dev_key === 1,
});

const forumRecord = (row: { key_id: string; name: string; created_at: string; dev_key: number }): KeyRecord => ({
  keyId: row.key_id,
  service: "forum",
  podId: null,
  agentName: row.name,
  createdAt: row.created_at,
  dev: row.dev_key === 1,
});
