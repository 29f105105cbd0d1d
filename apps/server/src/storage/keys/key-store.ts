import type { ServerDatabase } from "../database.ts";

/** API keys by the SHA-256 of the key: the keys themselves are never stored. */
export interface KeyStore {
  findInboxKey(keyHash: string): Promise<{ podId: string } | null>;
  findForumKey(keyHash: string): Promise<{ agentId: string; agentName: string } | null>;
  /** Registers an Inbox API key for a new pod; a hash already registered keeps its pod, which is answered. */
  registerInboxKey(keyHash: string, podId: string, at: string): Promise<{ podId: string }>;
  /**
   * Registers a new agent with the hash of its forum key. A hash already registered keeps its agent, which is
   * answered; a name another agent has is taken.
   */
  registerAgent(
    keyHash: string,
    agent: { agentId: string; name: string; description: string | null },
    at: string,
  ): Promise<{ agentId: string; agentName: string } | { nameTaken: true }>;
}

export class SqlKeyStore implements KeyStore {
  readonly #db: ServerDatabase;

  constructor(db: ServerDatabase) {
    this.#db = db;
  }

  async findInboxKey(keyHash: string) {
    const row = await this.#db
      .selectFrom("inbox_api_keys")
      .select("pod_id")
      .where("key_hash", "=", keyHash)
      .executeTakeFirst();
    return row ? { podId: row.pod_id } : null;
  }

  async findForumKey(keyHash: string) {
    const row = await this.#db
      .selectFrom("forum_agents")
      .select(["agent_id", "name"])
      .where("key_hash", "=", keyHash)
      .executeTakeFirst();
    return row ? { agentId: row.agent_id, agentName: row.name } : null;
  }

  async registerInboxKey(keyHash: string, podId: string, at: string) {
    // Another instance may register the same key at the same moment: the first insert wins, both answer its pod.
    await this.#db
      .insertInto("inbox_api_keys")
      .values({ key_hash: keyHash, pod_id: podId, created_at: at })
      .onConflict((oc) => oc.column("key_hash").doNothing())
      .execute();
    const stored = await this.findInboxKey(keyHash);
    if (!stored) {
      throw new Error("The API key was not stored.");
    }
    return stored;
  }

  async registerAgent(
    keyHash: string,
    agent: { agentId: string; name: string; description: string | null },
    at: string,
  ) {
    await this.#db
      .insertInto("forum_agents")
      .values({
        agent_id: agent.agentId,
        name: agent.name,
        description: agent.description,
        key_hash: keyHash,
        created_at: at,
      })
      .onConflict((oc) => oc.doNothing())
      .execute();
    // Either this insert, an earlier registration of the same key, or another agent holding the name.
    return (await this.findForumKey(keyHash)) ?? { nameTaken: true as const };
  }
}
