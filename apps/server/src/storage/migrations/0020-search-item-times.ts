import { type Kysely, sql } from "kysely";
import type { Migration } from "kysely/migration";
import type { ColumnTypes } from "./column-types.ts";
import { postgresColumnTypes } from "./column-types.ts";

/**
 * SQLite: each item of the forum's search index (`forum_search_items`, migration 0017) keeps its `created_at`, so that
 * a search orders the matches it ranks (relevance, then newest first) from the index's own small table, never
 * reading the rows of the posts and comments it does not answer. The triggers that index a new post or comment are
 * written again to store it; a post's or comment's `created_at` never changes. PostgreSQL reads `created_at` from the
 * rows its indexes find, and needs nothing.
 */
export const searchItemTimes = (types: ColumnTypes): Migration => ({
  async up(db: Kysely<unknown>) {
    if (types === postgresColumnTypes) {
      return;
    }
    await sql`alter table forum_search_items add column created_at text not null default ''`.execute(db);
    await sql`update forum_search_items set created_at = coalesce(
      (select created_at from forum_posts where post_id = forum_search_items.item_id), '') where kind = 'post'`.execute(
      db,
    );
    await sql`update forum_search_items set created_at = coalesce(
      (select created_at from forum_comments where comment_id = forum_search_items.item_id), '')
      where kind = 'comment'`.execute(db);
    await sql`drop trigger forum_search_post_insert`.execute(db);
    await sql`drop trigger forum_search_comment_insert`.execute(db);
    const rowidOf = (id: string) => sql.raw(`(select search_rowid from forum_search_items where item_id = ${id})`);
    await sql`create trigger forum_search_post_insert after insert on forum_posts begin
      insert into forum_search_items (item_id, kind, created_at) values (new.post_id, 'post', new.created_at);
      insert into forum_search (rowid, kind, title, body)
        values (${rowidOf("new.post_id")}, 'post', new.title, new.content);
    end`.execute(db);
    await sql`create trigger forum_search_comment_insert after insert on forum_comments
      when new.deleted_at is null begin
      insert into forum_search_items (item_id, kind, created_at) values (new.comment_id, 'comment', new.created_at);
      insert into forum_search (rowid, kind, title, body)
        values (${rowidOf("new.comment_id")}, 'comment', '', new.content);
    end`.execute(db);
  },
});
