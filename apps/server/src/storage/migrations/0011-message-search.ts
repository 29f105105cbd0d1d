import { type Kysely, sql } from "kysely";
import type { Migration } from "kysely/migration";
import { HTML_TEXT_FUNCTION, INDEXED_CHARACTERS } from "../inbox/search-text.ts";
import type { ColumnTypes } from "./column-types.ts";
import { postgresColumnTypes } from "./column-types.ts";

/**
 * A full-text index of messages, kept by the database itself: triggers on `messages` index each copy as it is stored
 * (or its indexed fields change) and forget it as it is deleted, whoever writes, so the index never holds a deleted
 * message. Messages stored before are indexed here. Each copy is indexed in three parts, which searches weigh:
 * `subject`; `addresses` (the sender, `to` and `cc`); `body` (the text and the html's text).
 *
 * SQLite: an FTS5 table holding only the index (contentless, rows deletable), whose rowid is `messages.seq`; the html's
 * text comes from a function the connection registers (node-sqlite-driver.ts). PostgreSQL: a `tsvector` per copy,
 * weighted A (subject), B (addresses), C (body), under a GIN index, deleted with its message by a cascading key. Both
 * split words at every character that is neither a letter nor a digit and fold case, without stemming, so a word
 * matches the same messages on both.
 */
export const messageSearch = (types: ColumnTypes): Migration => ({
  async up(db: Kysely<unknown>) {
    if (types === postgresColumnTypes) {
      await indexOnPostgres(db);
    } else {
      await indexOnSqlite(db);
    }
  },
});

async function indexOnSqlite(db: Kysely<unknown>) {
  await sql`create virtual table message_search using fts5(
    subject, addresses, body,
    tokenize = 'unicode61 remove_diacritics 0', content = '', contentless_delete = 1
  )`.execute(db);
  const indexed = (row: "new" | "messages") => {
    const column = (name: string) => sql.raw(`${row}.${name}`);
    return sql`${row === "new" ? sql.raw("new.seq") : sql.raw("messages.seq")},
      substr(coalesce(${column("subject")}, ''), 1, ${sql.lit(INDEXED_CHARACTERS)}),
      substr(${column("sender")} || ' ' || ${column("to_addresses")} || ' ' || ${column("cc_addresses")}, 1, ${sql.lit(INDEXED_CHARACTERS)}),
      substr(coalesce(${column("text_body")}, ''), 1, ${sql.lit(INDEXED_CHARACTERS)}) || ' ' || ${sql.raw(HTML_TEXT_FUNCTION)}(${column("html_body")})`;
  };
  await sql`create trigger message_search_insert after insert on messages begin
    insert into message_search (rowid, subject, addresses, body) values (${indexed("new")});
  end`.execute(db);
  await sql`create trigger message_search_update
    after update of subject, sender, to_addresses, cc_addresses, text_body, html_body on messages begin
    delete from message_search where rowid = old.seq;
    insert into message_search (rowid, subject, addresses, body) values (${indexed("new")});
  end`.execute(db);
  await sql`create trigger message_search_delete after delete on messages begin
    delete from message_search where rowid = old.seq;
  end`.execute(db);
  await sql`insert into message_search (rowid, subject, addresses, body) select ${indexed("messages")} from messages`.execute(
    db,
  );
}

async function indexOnPostgres(db: Kysely<unknown>) {
  // Every ASCII character that is not a letter or digit separates words, as in SQLite's tokenizer; PostgreSQL's own
  // parser would keep `ada@example.com` or `example.com` whole, so that `ada` or `example` would not find them.
  await sql`create function pigeonhole_search_words(value text) returns text language sql immutable parallel safe as $$
    select regexp_replace(left(coalesce(value, ''), ${sql.lit(INDEXED_CHARACTERS)}), '[\\x01-\\x2f\\x3a-\\x40\\x5b-\\x60\\x7b-\\x7f]+', ' ', 'g')
  $$`.execute(db);
  // The same steps as htmlText in search-text.ts.
  await sql`create function ${sql.raw(HTML_TEXT_FUNCTION)}(html text) returns text language sql immutable parallel safe as $$
    select regexp_replace(regexp_replace(regexp_replace(regexp_replace(regexp_replace(
      left(coalesce(html, ''), ${sql.lit(INDEXED_CHARACTERS)}),
      '<script\\M.*?</script\\s*>', ' ', 'gi'),
      '<style\\M.*?</style\\s*>', ' ', 'gi'),
      '<!--.*?-->', ' ', 'g'),
      '<[^>]*>', ' ', 'g'),
      '&#?[a-z0-9]+;', ' ', 'gi')
  $$`.execute(db);
  await sql`create function pigeonhole_message_document(
      subject text, sender text, to_addresses text, cc_addresses text, text_body text, html_body text
    ) returns tsvector language sql immutable parallel safe as $$
    select setweight(to_tsvector('simple', pigeonhole_search_words(subject)), 'A')
      || setweight(to_tsvector('simple', pigeonhole_search_words(sender || ' ' || to_addresses || ' ' || cc_addresses)), 'B')
      || setweight(to_tsvector('simple', pigeonhole_search_words(text_body) || ' '
        || pigeonhole_search_words(${sql.raw(HTML_TEXT_FUNCTION)}(html_body))), 'C')
  $$`.execute(db);
  await sql`create table message_search (
    seq integer primary key references messages (seq) on delete cascade,
    document tsvector not null
  )`.execute(db);
  await sql`create index message_search_document on message_search using gin (document)`.execute(db);
  await sql`create function pigeonhole_index_message() returns trigger language plpgsql as $$
    begin
      insert into message_search (seq, document)
        values (new.seq, pigeonhole_message_document(
          new.subject, new.sender, new.to_addresses, new.cc_addresses, new.text_body, new.html_body))
        on conflict (seq) do update set document = excluded.document;
      return null;
    end
  $$`.execute(db);
  await sql`create trigger message_search_index
    after insert or update of subject, sender, to_addresses, cc_addresses, text_body, html_body on messages
    for each row execute function pigeonhole_index_message()`.execute(db);
  await sql`insert into message_search (seq, document)
    select seq, pigeonhole_message_document(subject, sender, to_addresses, cc_addresses, text_body, html_body)
    from messages`.execute(db);
}
