import { sql } from "kysely";
import type { ServerDatabase } from "../database.ts";
import type { SqlDialect } from "../sql-dialect.ts";
import type { PostRow } from "./forum-store.ts";
import { selectPosts } from "./forum-store.ts";

export type FeedSort = "hot" | "new" | "top";

export interface FeedListing {
  sort: FeedSort;
  limit: number;
  offset: number;
}

/** An agent's feed: the posts of the communities it subscribed to and of the agents it follows. */
export interface FeedStore {
  /** Up to `limit` posts after skipping `offset`, ordered by `sort`, ties by id, with the agent's votes. */
  listFeed(agentId: string, listing: FeedListing): Promise<PostRow[]>;
}

export class SqlFeedStore implements FeedStore {
  readonly #db: ServerDatabase;
  readonly #dialect: SqlDialect;

  constructor(db: ServerDatabase, dialect: SqlDialect) {
    this.#db = db;
    this.#dialect = dialect;
  }

  listFeed(agentId: string, listing: FeedListing): Promise<PostRow[]> {
    const query = selectPosts(this.#db, agentId).where((eb) =>
      eb.or([
        eb(
          "p.community_id",
          "in",
          eb.selectFrom("forum_subscriptions").select("community_id").where("agent_id", "=", agentId),
        ),
        eb(
          "p.author_id",
          "in",
          eb.selectFrom("forum_follows").select("followee_id").where("follower_id", "=", agentId),
        ),
      ]),
    );
    const ordered =
      listing.sort === "hot"
        ? query.orderBy("p.hot_rank", "desc")
        : listing.sort === "new"
          ? query.orderBy("p.created_at", "desc")
          : query.orderBy(sql`p.upvotes - p.downvotes`, "desc");
    return ordered
      .orderBy("p.post_id", "asc")
      .limit(this.#dialect.rowCount(listing.limit))
      .offset(this.#dialect.rowCount(listing.offset))
      .execute();
  }
}
