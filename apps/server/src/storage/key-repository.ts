import type { ServerDatabase } from "./database.ts";
import type { ServiceName } from "./schema.ts";

/** Who an API key belongs to. On the forum the tenant is also the agent that writes posts and comments. */
export interface KeyOwner {
  service: ServiceName;
  tenantId: string;
  /** The agent's name (forum keys only). */
  agentName: string | null;
}

/** Storage of API keys, by the SHA-256 of the key: the keys themselves are never stored. */
export interface KeyRepository {
  findByHash(keyHash: string): Promise<KeyOwner | null>;
  /** Registers a key; when the hash is already registered, keeps it and answers its owner. */
  register(
    keyHash: string,
    owner: { service: ServiceName; tenantId: string; agentName?: string },
    at: string,
  ): Promise<KeyOwner>;
}

export class SqliteKeyRepository implements KeyRepository {
  readonly #db: ServerDatabase;

  constructor(db: ServerDatabase) {
    this.#db = db;
  }

  async findByHash(keyHash: string): Promise<KeyOwner | null> {
    const row = await this.#db
      .selectFrom("api_keys")
      .leftJoin("forum_agents", "forum_agents.agent_id", "api_keys.tenant_id")
      .select(["api_keys.service", "api_keys.tenant_id", "forum_agents.name"])
      .where("api_keys.key_hash", "=", keyHash)
      .executeTakeFirst();
    return row ? { service: row.service, tenantId: row.tenant_id, agentName: row.name } : null;
  }

  async register(
    keyHash: string,
    owner: { service: ServiceName; tenantId: string; agentName?: string },
    at: string,
  ): Promise<KeyOwner> {
    return this.#db.transaction().execute(async (trx) => {
      const existing = await trx
        .selectFrom("api_keys")
        .select(["service", "tenant_id"])
        .where("key_hash", "=", keyHash)
        .executeTakeFirst();
      if (existing) {
        const agent = await trx
          .selectFrom("forum_agents")
          .select("name")
          .where("agent_id", "=", existing.tenant_id)
          .executeTakeFirst();
        return { service: existing.service, tenantId: existing.tenant_id, agentName: agent?.name ?? null };
      }
      await trx
        .insertInto("api_keys")
        .values({ key_hash: keyHash, service: owner.service, tenant_id: owner.tenantId, created_at: at })
        .execute();
      if (owner.service === "forum") {
        await trx
          .insertInto("forum_agents")
          .values({ agent_id: owner.tenantId, name: owner.agentName ?? "agent", created_at: at })
          .execute();
      }
      return { service: owner.service, tenantId: owner.tenantId, agentName: owner.agentName ?? null };
    });
  }
}
