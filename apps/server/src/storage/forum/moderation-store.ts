import type { ServerDatabase } from "../database.ts";
import type { SqlDialect } from "../sql-dialect.ts";

/** Pinned posts a community may hold at once. */
export const MAX_PINNED_POSTS = 3;
/** Moderators a community may have, so that its list stays one bounded answer. */
export const MAX_MODERATORS = 100;

export interface ModeratorRow {
  agent_id: string;
  name: string;
  added_at: string;
}

export interface CommunityModerators {
  owner: { agent_id: string; name: string } | null;
  moderators: ModeratorRow[];
}

export type AddModeratorResult =
  | { added: ModeratorRow }
  | { missing: "community" | "agent" }
  | "forbidden"
  | "owner"
  | "full";
export type RemoveModeratorResult = "removed" | "forbidden" | { missing: "community" | "moderator" };
export type PinResult = "pinned" | "forbidden" | "missing" | "full";
export type UnpinResult = "unpinned" | "forbidden" | "missing";

/** Community owners and moderators, and the posts they pin. */
export interface ModerationStore {
  listModerators(communityName: string): Promise<CommunityModerators | null>;
  /** The owner `actorId` makes `agentName` a moderator; adding one again answers it as first added. */
  addModerator(communityName: string, actorId: string, agentName: string, at: string): Promise<AddModeratorResult>;
  removeModerator(communityName: string, actorId: string, agentName: string): Promise<RemoveModeratorResult>;
  /**
   * Pins a post, if `actorId` owns or moderates its community and the community holds fewer than
   * {@link MAX_PINNED_POSTS} pinned posts, in one transaction that holds the community row so that two pins at once
   * cannot both take the last place. Pinning a pinned post changes nothing.
   */
  pin(postId: string, actorId: string, at: string): Promise<PinResult>;
  unpin(postId: string, actorId: string): Promise<UnpinResult>;
}

export class SqlModerationStore implements ModerationStore {
  readonly #db: ServerDatabase;
  readonly #dialect: SqlDialect;

  constructor(db: ServerDatabase, dialect: SqlDialect) {
    this.#db = db;
    this.#dialect = dialect;
  }

  async listModerators(communityName: string): Promise<CommunityModerators | null> {
    const community = await this.#db
      .selectFrom("forum_communities as c")
      .leftJoin("forum_agents as a", "a.agent_id", "c.owner_id")
      .select(["c.community_id", "c.owner_id", "a.name as owner_name"])
      .where("c.name", "=", communityName)
      .executeTakeFirst();
    if (!community) {
      return null;
    }
    const moderators = await this.#moderators(this.#db, community.community_id);
    const owner =
      community.owner_id === null ? null : { agent_id: community.owner_id, name: community.owner_name ?? "agent" };
    return { owner, moderators };
  }

  addModerator(communityName: string, actorId: string, agentName: string, at: string): Promise<AddModeratorResult> {
    // Inside the transaction of an idempotent write when the store is built on one.
    return this.#inTransaction(async (trx) => {
      const community = await this.#lockCommunityByName(trx, communityName);
      if (!community) {
        return { missing: "community" as const };
      }
      if (community.owner_id !== actorId) {
        return "forbidden" as const;
      }
      const agent = await trx
        .selectFrom("forum_agents")
        .select(["agent_id", "name"])
        .where("name", "=", agentName)
        .executeTakeFirst();
      if (!agent) {
        return { missing: "agent" as const };
      }
      if (agent.agent_id === actorId) {
        return "owner" as const;
      }
      const moderators = await this.#moderators(trx, community.community_id);
      const already = moderators.find((m) => m.agent_id === agent.agent_id);
      if (already) {
        return { added: already };
      }
      if (moderators.length >= MAX_MODERATORS) {
        return "full" as const;
      }
      await trx
        .insertInto("forum_community_moderators")
        .values({ community_id: community.community_id, agent_id: agent.agent_id, created_at: at })
        .execute();
      return { added: { agent_id: agent.agent_id, name: agent.name, added_at: at } };
    });
  }

  removeModerator(communityName: string, actorId: string, agentName: string): Promise<RemoveModeratorResult> {
    return this.#db.transaction().execute(async (trx) => {
      const community = await this.#lockCommunityByName(trx, communityName);
      if (!community) {
        return { missing: "community" as const };
      }
      if (community.owner_id !== actorId) {
        return "forbidden" as const;
      }
      const removed = await trx
        .deleteFrom("forum_community_moderators")
        .where("community_id", "=", community.community_id)
        .where("agent_id", "in", trx.selectFrom("forum_agents").select("agent_id").where("name", "=", agentName))
        .executeTakeFirst();
      return Number(removed.numDeletedRows) > 0 ? "removed" : { missing: "moderator" as const };
    });
  }

  pin(postId: string, actorId: string, at: string): Promise<PinResult> {
    return this.#db.transaction().execute(async (trx) => {
      const post = await this.#postWithAuthority(trx, postId, actorId);
      if (post === "missing" || post === "forbidden") {
        return post;
      }
      if (post.pinned_at !== null) {
        return "pinned" as const;
      }
      const pinned = await trx
        .selectFrom("forum_posts")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("community_id", "=", post.community_id)
        .where("pinned_at", "is not", null)
        .executeTakeFirstOrThrow();
      if (Number(pinned.n) >= MAX_PINNED_POSTS) {
        return "full" as const;
      }
      await trx.updateTable("forum_posts").set({ pinned_at: at }).where("post_id", "=", postId).execute();
      return "pinned" as const;
    });
  }

  unpin(postId: string, actorId: string): Promise<UnpinResult> {
    return this.#db.transaction().execute(async (trx) => {
      const post = await this.#postWithAuthority(trx, postId, actorId);
      if (post === "missing" || post === "forbidden") {
        return post;
      }
      await trx.updateTable("forum_posts").set({ pinned_at: null }).where("post_id", "=", postId).execute();
      return "unpinned" as const;
    });
  }

  /** The post, once its community's row is locked (pins of one community wait for each other), if the actor may moderate it. */
  async #postWithAuthority(trx: ServerDatabase, postId: string, actorId: string) {
    const post = await trx
      .selectFrom("forum_posts")
      .select(["community_id", "pinned_at"])
      .where("post_id", "=", postId)
      .executeTakeFirst();
    if (!post) {
      return "missing" as const;
    }
    const community = await this.#dialect
      .lockRows(trx.selectFrom("forum_communities").select(["owner_id"]).where("community_id", "=", post.community_id))
      .executeTakeFirst();
    if (!community) {
      return "missing" as const;
    }
    if (community.owner_id !== actorId && !(await this.#isModerator(trx, post.community_id, actorId))) {
      return "forbidden" as const;
    }
    // Read again under the lock: a pin committed while this waited is seen.
    const current = await trx
      .selectFrom("forum_posts")
      .select(["community_id", "pinned_at"])
      .where("post_id", "=", postId)
      .executeTakeFirst();
    return current ?? ("missing" as const);
  }

  async #isModerator(db: ServerDatabase, communityId: string, agentId: string): Promise<boolean> {
    const row = await db
      .selectFrom("forum_community_moderators")
      .select("agent_id")
      .where("community_id", "=", communityId)
      .where("agent_id", "=", agentId)
      .executeTakeFirst();
    return row !== undefined;
  }

  #lockCommunityByName(trx: ServerDatabase, name: string) {
    return this.#dialect
      .lockRows(trx.selectFrom("forum_communities").select(["community_id", "owner_id"]).where("name", "=", name))
      .executeTakeFirst();
  }

  #moderators(db: ServerDatabase, communityId: string): Promise<ModeratorRow[]> {
    return db
      .selectFrom("forum_community_moderators as m")
      .innerJoin("forum_agents as a", "a.agent_id", "m.agent_id")
      .select(["m.agent_id", "a.name", "m.created_at as added_at"])
      .where("m.community_id", "=", communityId)
      .orderBy("m.created_at", "asc")
      .orderBy("m.agent_id", "asc")
      .limit(MAX_MODERATORS)
      .execute();
  }

  #inTransaction<T>(work: (trx: ServerDatabase) => Promise<T>): Promise<T> {
    return this.#db.isTransaction ? work(this.#db) : this.#db.transaction().execute(work);
  }
}
