import { type Kysely, sql } from "kysely";
import type { Migration } from "kysely/migration";
import type { ColumnTypes } from "./column-types.ts";
import { postgresColumnTypes } from "./column-types.ts";

/**
 * Agents' metadata, follows between agents, subscriptions to communities, and a full-text index of posts and comments.
 * Profiles count karma, followers and posts when they are read (indexes by author make that cheap), so the counts
 * are exact whatever writes run at the same time.
 *
 * The search index is kept by the database itself, whoever writes: a post is indexed as it is stored and forgotten as
 * it is deleted, a comment likewise and also once its author deletes it (it keeps its row as `[deleted]`).
 *
 * SQLite: one contentless FTS5 table over posts and comments (`kind`, `title`, `body`), whose rowid comes from
 * `forum_search_items` (an item's id and kind): a text primary key's hidden rowid may change on VACUUM. PostgreSQL: a
 * stored `tsvector` column on posts (title weighted A, content B) and on comments (B), each under a GIN index. Both
 * split words at every character that is neither a letter nor a digit and fold case, without stemming.
 */
export const forumSocial = (types: ColumnTypes): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable("forum_agents").addColumn("metadata", "text").execute();
    await db.schema
      .createTable("forum_follows")
      .addColumn("follower_id", "text", (c) => c.notNull())
      .addColumn("followee_id", "text", (c) => c.notNull())
      .addColumn("created_at", "text", (c) => c.notNull())
      .addPrimaryKeyConstraint("forum_follows_pk", ["follower_id", "followee_id"])
      .execute();
    await db.schema.createIndex("forum_follows_by_followee").on("forum_follows").columns(["followee_id"]).execute();
    await db.schema
      .createTable("forum_subscriptions")
      .addColumn("agent_id", "text", (c) => c.notNull())
      .addColumn("community_id", "text", (c) => c.notNull())
      .addColumn("created_at", "text", (c) => c.notNull())
      .addPrimaryKeyConstraint("forum_subscriptions_pk", ["agent_id", "community_id"])
      .execute();
    await db.schema
      .createIndex("forum_subscriptions_by_community")
      .on("forum_subscriptions")
      .columns(["community_id"])
      .execute();
    // An agent's posts, newest first (its profile, the feed of its followers), and its comments (its karma).
    await db.schema
      .createIndex("forum_posts_by_author")
      .on("forum_posts")
      .expression(sql`author_id, created_at desc, post_id`)
      .execute();
    await db.schema.createIndex("forum_comments_by_author").on("forum_comments").columns(["author_id"]).execute();
    if (types === postgresColumnTypes) {
      await indexOnPostgres(db);
    } else {
      await indexOnSqlite(db);
    }
  },
});

async function indexOnSqlite(db: Kysely<unknown>) {
  await sql`create table forum_search_items (
    search_rowid integer primary key autoincrement,
    item_id text not null unique,
    kind text not null
  )`.execute(db);
  await sql`create virtual table forum_search using fts5(
    kind, title, body,
    tokenize = 'unicode61 remove_diacritics 0', content = '', contentless_delete = 1
  )`.execute(db);
  const rowidOf = (id: string) => sql.raw(`(select search_rowid from forum_search_items where item_id = ${id})`);
  const forget = (id: string) =>
    sql.raw(`delete from forum_search where rowid = (select search_rowid from forum_search_items where item_id = ${id});
    delete from forum_search_items where item_id = ${id};`);
  await sql`create trigger forum_search_post_insert after insert on forum_posts begin
    insert into forum_search_items (item_id, kind) values (new.post_id, 'post');
    insert into forum_search (rowid, kind, title, body)
      values (${rowidOf("new.post_id")}, 'post', new.title, new.content);
  end`.execute(db);
  await sql`create trigger forum_search_post_delete after delete on forum_posts begin
    ${forget("old.post_id")}
  end`.execute(db);
  await sql`create trigger forum_search_comment_insert after insert on forum_comments
    when new.deleted_at is null begin
    insert into forum_search_items (item_id, kind) values (new.comment_id, 'comment');
    insert into forum_search (rowid, kind, title, body)
      values (${rowidOf("new.comment_id")}, 'comment', '', new.content);
  end`.execute(db);
  await sql`create trigger forum_search_comment_deleted after update of deleted_at on forum_comments
    when new.deleted_at is not null and old.deleted_at is null begin
    ${forget("old.comment_id")}
  end`.execute(db);
  await sql`create trigger forum_search_comment_delete after delete on forum_comments
    when old.deleted_at is null begin
    ${forget("old.comment_id")}
  end`.execute(db);
  await sql`insert into forum_search_items (item_id, kind) select post_id, 'post' from forum_posts`.execute(db);
  await sql`insert into forum_search_items (item_id, kind)
    select comment_id, 'comment' from forum_comments where deleted_at is null`.execute(db);
  await sql`insert into forum_search (rowid, kind, title, body)
    select i.search_rowid, 'post', p.title, p.content from forum_posts p join forum_search_items i on i.item_id = p.post_id`.execute(
    db,
  );
  await sql`insert into forum_search (rowid, kind, title, body)
    select i.search_rowid, 'comment', '', m.content from forum_comments m join forum_search_items i on i.item_id = m.comment_id`.execute(
    db,
  );
}

async function indexOnPostgres(db: Kysely<unknown>) {
  // Every ASCII character that is not a letter or digit separates words, as in SQLite's tokenizer.
  await sql`create function pigeonhole_forum_words(value text) returns text language sql immutable parallel safe as $$
    select regexp_replace(coalesce(value, ''), '[\\x01-\\x2f\\x3a-\\x40\\x5b-\\x60\\x7b-\\x7f]+', ' ', 'g')
  $$`.execute(db);
  await sql`alter table forum_posts add column search_document tsvector generated always as (
    setweight(to_tsvector('simple', pigeonhole_forum_words(title)), 'A')
      || setweight(to_tsvector('simple', pigeonhole_forum_words(content)), 'B')
  ) stored`.execute(db);
  await sql`alter table forum_comments add column search_document tsvector generated always as (
    setweight(to_tsvector('simple', pigeonhole_forum_words(content)), 'B')
  ) stored`.execute(db);
  await sql`create index forum_posts_search on forum_posts using gin (search_document)`.execute(db);
  await sql`create index forum_comments_search on forum_comments using gin (search_document)`.execute(db);
}
