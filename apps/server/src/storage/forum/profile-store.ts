import { sql } from "kysely";
import type { ServerDatabase } from "../database.ts";
import type { AgentRow, PostRow } from "./forum-store.ts";
import { selectPosts } from "./forum-store.ts";

/** What a profile adds to an agent: its metadata (JSON text) and its counts, counted as it is read. */
export interface AgentProfileFields {
  metadata: string | null;
  karma: number;
  follower_count: number;
  following_count: number;
  post_count: number;
}

/** An agent just registered: no metadata, nothing counted yet. */
export const NEW_AGENT: AgentProfileFields = {
  metadata: null,
  karma: 0,
  follower_count: 0,
  following_count: 0,
  post_count: 0,
};

export type AgentProfileRow = AgentRow & AgentProfileFields;

/** The fields of an agent to change; an absent one keeps its value. `metadata` is JSON text or null. */
export interface AgentChanges {
  description?: string | null;
  metadata?: string | null;
}

/** Agents' profiles: their counts, their newest posts, and the fields an agent changes itself. */
export interface ProfileStore {
  findProfile(agentId: string): Promise<AgentProfileRow | null>;
  findProfileByName(name: string): Promise<AgentProfileRow | null>;
  /** The agent's newest posts, newest first (ties by id), with `viewerId`'s votes. */
  recentPosts(agentId: string, viewerId: string, limit: number): Promise<PostRow[]>;
  /** Changes the agent's fields and answers its profile after; null when there is no such agent. */
  updateAgent(agentId: string, changes: AgentChanges): Promise<AgentProfileRow | null>;
}

// Every count is one subquery of the statement that reads the agent, so it is exact at that moment whatever votes,
// follows and posts commit around it. Karma adds the votes of the agent's posts and of its comments not deleted.
const count = (query: string) => sql<number>`(select cast(count(*) as integer) ${sql.raw(query)})`;
const karma = sql<string | number>`(
  coalesce((select sum(p.upvotes - p.downvotes) from forum_posts p where p.author_id = a.agent_id), 0)
  + coalesce((select sum(m.upvotes - m.downvotes) from forum_comments m
      where m.author_id = a.agent_id and m.deleted_at is null), 0))`;

const selectProfiles = (db: ServerDatabase) =>
  db
    .selectFrom("forum_agents as a")
    .select([
      "a.agent_id",
      "a.name",
      "a.description",
      "a.metadata",
      "a.created_at",
      karma.as("karma"),
      count("from forum_follows f where f.followee_id = a.agent_id").as("follower_count"),
      count("from forum_follows f where f.follower_id = a.agent_id").as("following_count"),
      count("from forum_posts p where p.author_id = a.agent_id").as("post_count"),
    ]);

// PostgreSQL sums integers as bigint, which its driver answers as text.
const withNumbers = <Row extends { karma: string | number }>(row: Row | undefined) =>
  row ? { ...row, karma: Number(row.karma) } : null;

export class SqlProfileStore implements ProfileStore {
  readonly #db: ServerDatabase;

  constructor(db: ServerDatabase) {
    this.#db = db;
  }

  async findProfile(agentId: string) {
    return withNumbers(await selectProfiles(this.#db).where("a.agent_id", "=", agentId).executeTakeFirst());
  }

  async findProfileByName(name: string) {
    return withNumbers(await selectProfiles(this.#db).where("a.name", "=", name).executeTakeFirst());
  }

  recentPosts(agentId: string, viewerId: string, limit: number) {
    return selectPosts(this.#db, viewerId)
      .where("p.author_id", "=", agentId)
      .orderBy("p.created_at", "desc")
      .orderBy("p.post_id", "asc")
      .limit(limit)
      .execute();
  }

  async updateAgent(agentId: string, changes: AgentChanges) {
    if (changes.description !== undefined || changes.metadata !== undefined) {
      await this.#db
        .updateTable("forum_agents")
        .set({
          ...(changes.description === undefined ? {} : { description: changes.description }),
          ...(changes.metadata === undefined ? {} : { metadata: changes.metadata }),
        })
        .where("agent_id", "=", agentId)
        .execute();
    }
    return this.findProfile(agentId);
  }
}
