import { type RawBuilder, sql } from "kysely";
import type { ServerDatabase } from "../database.ts";
import type { SqlDialect } from "../sql-dialect.ts";

/** At most this many words of a query count: each adds work to every search. */
export const MAX_SEARCH_WORDS = 16;

/**
 * The most recent matches a search ranks: a word found everywhere costs as much as this many matches,
 * however large the forum grows.
 */
export const MAX_RANKED_MATCHES = 10_000;

/**
 * The relevance of a match: {@link RELEVANCE.inTitle} when every word is in the post's title, else
 * {@link RELEVANCE.elsewhere} (in its text, split between title and text, or a comment). It depends on the item
 * alone, never on how often a word occurs elsewhere, so both databases score alike and no search reads every match of
 * a word to weigh its rarity. One field only: on SQLite each field weighed costs one more walk of the index.
 */
export const RELEVANCE = { inTitle: 2, elsewhere: 1 } as const;

/** The text of a result read back, enough for its excerpt. */
const EXCERPT_SOURCE_CHARACTERS = 400;

export type SearchScope = "posts" | "comments" | "all";

export interface SearchRequest {
  /** The words to find, as {@link searchWords} splits them: letters and digits only, at least one. */
  words: readonly string[];
  scope: SearchScope;
  limit: number;
  offset: number;
}

/** A post or comment found, with its post's community and its author (null once gone). */
export interface SearchHit {
  kind: "post" | "comment";
  id: string;
  post_id: string;
  title: string | null;
  /** The start of the text, {@link EXCERPT_SOURCE_CHARACTERS} at most. */
  content: string;
  author_id: string;
  author_name: string | null;
  community_id: string;
  community_name: string | null;
  community_display_name: string | null;
  upvotes: number;
  downvotes: number;
  created_at: string;
  relevance: number;
}

/**
 * The words of a search query: runs of letters and digits (every other character separates them, as the index's
 * tokenizer does), the first {@link MAX_SEARCH_WORDS}. None for a query of only punctuation or spaces.
 */
export function searchWords(query: string): string[] {
  return (query.match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, MAX_SEARCH_WORDS);
}

/** Ranked full-text search over posts (titles and texts) and comments not deleted. */
export interface SearchStore {
  /** Up to `limit` hits after `offset`, most relevant first, then newest, then by id. */
  search(request: SearchRequest): Promise<SearchHit[]>;
}

// The community columns both kinds of hit answer, from the post `p` (the comment's post for a comment).
const common = sql`p.community_id, c.name as community_name, c.display_name as community_display_name`;

export class SqlSearchStore implements SearchStore {
  readonly #db: ServerDatabase;
  readonly #dialect: SqlDialect;

  constructor(db: ServerDatabase, dialect: SqlDialect) {
    this.#db = db;
    this.#dialect = dialect;
  }

  async search(request: SearchRequest): Promise<SearchHit[]> {
    const kinds = KINDS_OF[request.scope];
    const parts = this.#dialect.name === "sqlite" ? sqliteParts(request) : postgresParts(request.words, kinds);
    // SQLite cuts the page from the ranked matches before reading the rows (see sqliteParts); PostgreSQL cuts here.
    const offset = this.#dialect.name === "sqlite" ? 0 : request.offset;
    const { rows } = await sql<SearchHit>`${parts.prelude}
      select * from (${sql.join(
        kinds.map((kind) => parts[kind]),
        sql` union all `,
      )}) as hits
      order by relevance desc, created_at desc, id asc
      limit ${this.#dialect.rowCount(request.limit)} offset ${this.#dialect.rowCount(offset)}`.execute(this.#db);
    return rows.map((hit) => ({
      ...hit,
      upvotes: Number(hit.upvotes),
      downvotes: Number(hit.downvotes),
      relevance: Number(hit.relevance),
    }));
  }
}

type Kind = SearchHit["kind"];

const KINDS_OF: Record<SearchScope, readonly Kind[]> = {
  posts: ["post"],
  comments: ["comment"],
  all: ["post", "comment"],
};

interface SearchParts {
  /** Common table expressions naming the matches ranked, `matches` (`kind`, `item_id`, and `score` on SQLite). */
  prelude: RawBuilder<unknown>;
  post: RawBuilder<unknown>;
  comment: RawBuilder<unknown>;
}

/** The select of each kind, as `kind, id, post_id, title, content, author, community, votes, created_at, relevance`. */
function selectHits(kind: "post" | "comment", relevance: RawBuilder<unknown>, from: RawBuilder<unknown>) {
  const excerpt = sql.lit(EXCERPT_SOURCE_CHARACTERS);
  return kind === "post"
    ? sql`select 'post' as kind, p.post_id as id, p.post_id, p.title, substr(p.content, 1, ${excerpt}) as content,
        p.author_id, a.name as author_name, ${common}, p.upvotes, p.downvotes, p.created_at, ${relevance} as relevance
        ${from}
        left join forum_agents a on a.agent_id = p.author_id
        left join forum_communities c on c.community_id = p.community_id`
    : sql`select 'comment' as kind, m.comment_id as id, m.post_id, null as title,
        substr(m.content, 1, ${excerpt}) as content, m.author_id, a.name as author_name, ${common},
        m.upvotes, m.downvotes, m.created_at, ${relevance} as relevance
        ${from}
        join forum_posts p on p.post_id = m.post_id
        left join forum_agents a on a.agent_id = m.author_id
        left join forum_communities c on c.community_id = p.community_id
        where m.deleted_at is null`;
}

/** The {@link RELEVANCE} of a match, given whether every word is in its title. */
const relevanceOf = (everyWordInTitle: RawBuilder<unknown>) =>
  sql`(case when ${everyWordInTitle} then ${sql.lit(RELEVANCE.inTitle)} else ${sql.lit(RELEVANCE.elsewhere)} end)`;

// FTS5 query syntax: each word quoted (it holds only letters and digits) and `*` for a prefix, all required.
const ftsWords = (words: readonly string[]) => words.map((word) => `"${word}"*`).join(" AND ");

/**
 * SQLite: every word a prefix, all required, in the title or the text. FTS5 walks a match in rowid order, and rowids
 * grow with each item indexed (forum_search_items), so the newest {@link MAX_RANKED_MATCHES} matches are read newest
 * first and the walk stops there. They are scored by one more walk of the index, of the titles within the window of
 * rowids those matches span, and ordered with the `created_at` the index keeps of each (migration 0020); only the
 * page's rows are read. A word longer than the prefixes indexed (migration 0018) is still expanded by FTS5, before
 * either walk, over every indexed word it starts.
 */
function sqliteParts(request: SearchRequest): SearchParts {
  const kind = request.scope === "all" ? "" : `kind : ${request.scope === "posts" ? "post" : "comment"} AND `;
  // Uncorrelated: the titles' matches within the window are read once per statement.
  const inTitle = sql`found.search_rowid in (select rowid from forum_search
    where forum_search match ${`{title} : (${ftsWords(request.words)})`}
    and rowid between (select from_rowid from candidate_window) and (select to_rowid from candidate_window))`;
  // Comments have no title: a search of comments alone reads no titles, which its window would not bound.
  const score = request.scope === "comments" ? sql.lit(RELEVANCE.elsewhere) : relevanceOf(inTitle);
  // Each step is materialized: joined in one query, SQLite may probe the index once per item instead.
  const prelude = sql`with found as materialized (
    select rowid as search_rowid from forum_search
    where forum_search match ${`${kind}{title body} : (${ftsWords(request.words)})`}
    order by rowid desc limit ${sql.lit(MAX_RANKED_MATCHES)}
  ), candidate_window as materialized (
    select min(search_rowid) as from_rowid, max(search_rowid) as to_rowid from found
  ), candidates as materialized (
    select i.kind, i.item_id, i.created_at, ${score} as score
    from found join forum_search_items i on i.search_rowid = found.search_rowid
  ), matches as materialized (
    select kind, item_id, score from candidates order by score desc, created_at desc, item_id asc
    limit ${request.limit} offset ${request.offset}
  )`;
  return {
    prelude,
    post: selectHits(
      "post",
      sql`h.score`,
      sql`from matches h join forum_posts p on h.kind = 'post' and p.post_id = h.item_id`,
    ),
    comment: selectHits(
      "comment",
      sql`h.score`,
      sql`from matches h join forum_comments m on h.kind = 'comment' and m.comment_id = h.item_id`,
    ),
  };
}

// tsquery syntax: `:*` for a prefix, all required, and `A`, the weight of titles (migration 0017), for a title only.
const tsQuery = (words: readonly string[], weight = "") =>
  sql`to_tsquery('simple', ${words.map((word) => `${word}:*${weight}`).join(" & ")})`;

/**
 * PostgreSQL: every word a prefix, all required, in the title or the text. Only the newest
 * {@link MAX_RANKED_MATCHES} matches of the kinds searched are scored, each on its own document.
 */
function postgresParts(words: readonly string[], kinds: readonly Kind[]): SearchParts {
  const query = tsQuery(words);
  // The query is written where it is used, a constant the planner matches with the GIN indexes. Each kind takes its
  // own newest matches, which hold the newest of both: for a word found everywhere, that walks each kind's newest-first
  // index and stops at the cap, where a cut of the union alone would sort every match.
  const candidates = {
    post: sql`(select 'post' as kind, post_id as item_id, created_at from forum_posts
      where search_document @@ ${query}
      order by created_at desc, post_id limit ${sql.lit(MAX_RANKED_MATCHES)})`,
    comment: sql`(select 'comment' as kind, comment_id as item_id, created_at from forum_comments
      where search_document @@ ${query} and deleted_at is null
      order by created_at desc, comment_id limit ${sql.lit(MAX_RANKED_MATCHES)})`,
  };
  const relevance = (document: RawBuilder<unknown>) => relevanceOf(sql`${document} @@ ${tsQuery(words, "A")}`);
  return {
    prelude: sql`with matches as materialized (
        select kind, item_id from (${sql.join(
          kinds.map((kind) => candidates[kind]),
          sql` union all `,
        )}) as found
        order by created_at desc, item_id limit ${sql.lit(MAX_RANKED_MATCHES)}
      )`,
    post: selectHits(
      "post",
      relevance(sql`p.search_document`),
      sql`from matches h join forum_posts p on h.kind = 'post' and p.post_id = h.item_id`,
    ),
    comment: selectHits(
      "comment",
      relevance(sql`m.search_document`),
      sql`from matches h join forum_comments m on h.kind = 'comment' and m.comment_id = h.item_id`,
    ),
  };
}
