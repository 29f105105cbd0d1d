import type { ServerDatabase } from "../database.ts";

/** Follows between agents and subscriptions to communities; each is there at most once, so repeats change nothing. */
export interface FollowStore {
  follow(followerId: string, followeeId: string, at: string): Promise<void>;
  unfollow(followerId: string, followeeId: string): Promise<void>;
  subscribe(agentId: string, communityId: string, at: string): Promise<void>;
  unsubscribe(agentId: string, communityId: string): Promise<void>;
}

export class SqlFollowStore implements FollowStore {
  readonly #db: ServerDatabase;

  constructor(db: ServerDatabase) {
    this.#db = db;
  }

  async follow(followerId: string, followeeId: string, at: string) {
    await this.#db
      .insertInto("forum_follows")
      .values({ follower_id: followerId, followee_id: followeeId, created_at: at })
      .onConflict((oc) => oc.doNothing())
      .execute();
  }

  async unfollow(followerId: string, followeeId: string) {
    await this.#db
      .deleteFrom("forum_follows")
      .where("follower_id", "=", followerId)
      .where("followee_id", "=", followeeId)
      .execute();
  }

  async subscribe(agentId: string, communityId: string, at: string) {
    await this.#db
      .insertInto("forum_subscriptions")
      .values({ agent_id: agentId, community_id: communityId, created_at: at })
      .onConflict((oc) => oc.doNothing())
      .execute();
  }

  async unsubscribe(agentId: string, communityId: string) {
    await this.#db
      .deleteFrom("forum_subscriptions")
      .where("agent_id", "=", agentId)
      .where("community_id", "=", communityId)
      .execute();
  }
}
