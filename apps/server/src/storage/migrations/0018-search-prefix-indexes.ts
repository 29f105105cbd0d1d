import { type Kysely, sql } from "kysely";
import type { Migration } from "kysely/migration";
import { HTML_TEXT_FUNCTION, INDEXED_CHARACTERS } from "../inbox/search-text.ts";
import type { ColumnTypes } from "./column-types.ts";
import { postgresColumnTypes } from "./column-types.ts";

/**
 * Bounded search work on both indexes. SQLite: the FTS5 tables of messages (0011) and of the forum (0017) are built
 * again with prefix indexes, then filled again from the rows they index. A query word is a prefix, and without a
 * prefix index FTS5 reads and merges, for each prefix, the whole list of every indexed word it starts, across all
 * pods, before it can seek; with one, a prefix of up to {@link INDEXED_PREFIX_LENGTHS} characters is a single list,
 * read only as far as the search needs. The triggers that keep the tables name them and go on working.
 *
 * PostgreSQL: comments are indexed newest first, as posts already are, so that a search over posts and comments can
 * take the newest matches of both by walking the two indexes instead of sorting every match.
 */
export const searchPrefixIndexes = (types: ColumnTypes): Migration => ({
  async up(db: Kysely<unknown>) {
    if (types === postgresColumnTypes) {
      await db.schema
        .createIndex("forum_comments_new")
        .on("forum_comments")
        .expression(sql`created_at desc, comment_id`)
        .execute();
    } else {
      await rebuildMessageSearch(db);
      await rebuildForumSearch(db);
    }
  },
});

/** The prefix lengths indexed: the shortest prefixes start the most words, so they cost the most without one. */
export const INDEXED_PREFIX_LENGTHS = "2 3 4";

const options = sql.raw(
  `tokenize = 'unicode61 remove_diacritics 0', content = '', contentless_delete = 1, prefix = '${INDEXED_PREFIX_LENGTHS}'`,
);

async function rebuildMessageSearch(db: Kysely<unknown>) {
  await sql`drop table message_search`.execute(db);
  await sql`create virtual table message_search using fts5(subject, addresses, body, ${options})`.execute(db);
  // What migration 0011's triggers index of each message.
  await sql`insert into message_search (rowid, subject, addresses, body)
    select seq,
      substr(coalesce(subject, ''), 1, ${sql.lit(INDEXED_CHARACTERS)}),
      substr(sender || ' ' || to_addresses || ' ' || cc_addresses, 1, ${sql.lit(INDEXED_CHARACTERS)}),
      substr(coalesce(text_body, ''), 1, ${sql.lit(INDEXED_CHARACTERS)}) || ' ' || ${sql.raw(HTML_TEXT_FUNCTION)}(html_body)
    from messages`.execute(db);
}

async function rebuildForumSearch(db: Kysely<unknown>) {
  await sql`drop table forum_search`.execute(db);
  await sql`create virtual table forum_search using fts5(kind, title, body, ${options})`.execute(db);
  // forum_search_items holds the items indexed (comments deleted by their author are not), with their rowids.
  await sql`insert into forum_search (rowid, kind, title, body)
    select i.search_rowid, 'post', p.title, p.content from forum_posts p join forum_search_items i on i.item_id = p.post_id`.execute(
    db,
  );
  await sql`insert into forum_search (rowid, kind, title, body)
    select i.search_rowid, 'comment', '', m.content from forum_comments m join forum_search_items i on i.item_id = m.comment_id`.execute(
    db,
  );
}
