import type { RawBuilder } from "kysely";
import { sql } from "kysely";
import type { ServerDatabase } from "../database.ts";
import type { InboxRow, MessageRow, ThreadRow } from "../schema.ts";
import type { SqlDialect } from "../sql-dialect.ts";
import type { AttachmentRow, MessageWithAttachments } from "./inbox-store.ts";
import { literalPattern } from "./like-pattern.ts";

// Ranked searches over a pod's inboxes, messages and threads. Messages are found through the full-text index of
// migration 0011 (FTS5 on SQLite, a GIN-indexed tsvector on PostgreSQL); inboxes, a pod's few addresses and names, by
// word prefixes.

/** What a message search looks for. */
export interface SearchTerms {
  /** Words of letters and digits; each must start a word of the message (or the inbox). At least one. */
  words: readonly string[];
  /** Only messages whose `timestamp` is before this ISO 8601 timestamp. */
  before?: string;
  /** Only messages whose `timestamp` is after this ISO 8601 timestamp. */
  after?: string;
}

/**
 * The most recently stored matching messages one search ranks (in the inbox, or in the pod's inboxes): a word found
 * in every message costs as much as this many matches, however much mail is kept. Older matches are reached by
 * narrowing the search (`before`).
 */
export const MAX_RANKED_MATCHES = 10_000;

/**
 * The matches a search ranks, fixed by its first page: those stored from `fromSeq` to `toSeq` (by `seq`). Later pages
 * rank the same messages, so a message stored after the first page, which would push the oldest candidate out, never
 * makes a later page skip or repeat one.
 */
export interface CandidateWindow {
  fromSeq: number;
  toSeq: number;
}

/**
 * Where a ranked list stands: the rank, then `(created_at, seq)` of the last row listed (newest first among equals),
 * and for messages and threads the window of candidates the ranking was made of.
 */
export interface RankedPosition {
  score: number;
  createdAt: string;
  seq: number;
  window?: CandidateWindow;
}

export interface Ranked<T> {
  row: T;
  position: RankedPosition;
}

export interface RankedPageRequest {
  /** Rows to fetch (the page size plus one, to learn whether more follow). */
  limit: number;
  after?: RankedPosition;
}

/** Whose messages a search reads: one inbox's, or those of every inbox of a pod. */
export type SearchScope = { inboxId: string } | { podId: string };

/**
 * The rank of a match: 4 when every word is in the subject, plus 2 when every word is in the addresses (sender, `to`,
 * `cc`), plus 1 when every word is in the body. It depends on the message alone, never on what else is stored, so a
 * pod's results never move with another pod's mail and pages stay stable.
 */
export const RANK_WEIGHTS = { subject: 4, addresses: 2, body: 1 } as const;

export interface MessageSearchIndex {
  /** Messages of the inbox among its {@link MAX_RANKED_MATCHES} newest matches, ranked. */
  searchMessages(
    inboxId: string,
    terms: SearchTerms,
    page: RankedPageRequest,
  ): Promise<Ranked<MessageWithAttachments>[]>;
  /** Threads holding one of the {@link MAX_RANKED_MATCHES} newest matching messages, ranked by their best one. */
  searchThreads(scope: SearchScope, terms: SearchTerms, page: RankedPageRequest): Promise<Ranked<ThreadRow>[]>;
  /**
   * Inboxes of the pod whose address or display name has a word starting with each word (addresses split at `@`,
   * `.`, `-`, `_` and `+`): the inbox whose address is `exact` first, then addresses starting with the first word.
   */
  searchInboxes(
    podId: string,
    words: readonly string[],
    exact: string,
    page: RankedPageRequest,
  ): Promise<Ranked<InboxRow>[]>;
}

/** How each database matches a set of words in the index. */
interface MatchSyntax {
  /** The index joined to `messages m`, filtered to messages having every word in some field. */
  matching(words: readonly string[]): RawBuilder<unknown>;
  /** The index row's `messages.seq`, in terms the index can walk in order and seek to. */
  indexedSeq: RawBuilder<unknown>;
  /** What {@link matching} is ordered by to take the newest matches. */
  newestOrder: RawBuilder<unknown>;
  /** The candidates (`matched`), with what {@link inField} reads of each. */
  scored: RawBuilder<unknown>;
  /** Whether the candidate has every word in `field`. */
  inField(field: keyof typeof RANK_WEIGHTS, words: readonly string[]): RawBuilder<unknown>;
}

// FTS5 query syntax: each word quoted (it holds only letters and digits) and `*` for a prefix.
const ftsQuery = (words: readonly string[]) => words.map((word) => `"${word}"*`).join(" AND ");

// FTS5 walks a match in rowid (= `messages.seq`) order, either way, and seeks to a rowid range, so the newest matches
// come first and the window's are read without the rest. `cross join` keeps the index the outer loop.
const sqliteMatch: MatchSyntax = {
  matching: (words) =>
    sql`message_search cross join messages m on m.seq = message_search.rowid
      where message_search match ${ftsQuery(words)}`,
  indexedSeq: sql`message_search.rowid`,
  newestOrder: sql`message_search.rowid`,
  scored: sql`matched`,
  // Uncorrelated: the field's matches within the window are read once per statement.
  inField: (field, words) =>
    sql`matched.seq in (select rowid from message_search where message_search match ${`{${field}} : (${ftsQuery(words)})`}
      and rowid between (select from_seq from candidate_window) and (select to_seq from candidate_window))`,
};

// tsquery syntax: `:*` for a prefix, and the weight letter of a field (migration 0011).
const WEIGHT_LETTERS = { subject: "A", addresses: "B", body: "C" } as const;
const tsQuery = (words: readonly string[], weight = "") => words.map((word) => `${word}:*${weight}`).join(" & ");

const postgresMatch: MatchSyntax = {
  matching: (words) =>
    sql`message_search s join messages m on m.seq = s.seq where s.document @@ to_tsquery('simple', ${tsQuery(words)})`,
  indexedSeq: sql`s.seq`,
  // An expression no index holds, so that the GIN index finds the matches and only the newest are kept: walking the
  // table newest first instead, testing every document, reads them all for a rare word.
  newestOrder: sql`(s.seq + 0)`,
  // Each candidate's document, read again by its key: a join could read every document in the window, which for a
  // rare word spans the whole table.
  scored: sql`matched cross join lateral (select document from message_search where seq = matched.seq) s`,
  inField: (field, words) => sql`s.document @@ to_tsquery('simple', ${tsQuery(words, WEIGHT_LETTERS[field])})`,
};

/** Rows past `after` in the order `score desc, created_at desc, seq desc`, of a subquery named `ranked`. */
const pastPosition = (after: RankedPosition | undefined) =>
  after === undefined
    ? sql`1 = 1`
    : sql`(ranked.score < ${after.score} or (ranked.score = ${after.score}
        and (ranked.created_at, ranked.seq) < (${after.createdAt}, ${after.seq})))`;

type WithScore<T> = T & { score: number | string };
type WithWindow<T> = WithScore<T> & { from_seq: number | string; to_seq: number | string };

const ranked = <T extends { created_at: string; seq: number }>(rows: WithScore<T>[]): Ranked<T>[] =>
  rows.map(({ score, ...row }) => ({
    row: row as unknown as T,
    position: { score: Number(score), createdAt: row.created_at, seq: row.seq },
  }));

/** Ranked rows with the window of candidates they were ranked among, which later pages rank again. */
const rankedInWindow = <T extends { created_at: string; seq: number }>(rows: WithWindow<T>[]): Ranked<T>[] =>
  rows.map(({ score, from_seq, to_seq, ...row }) => ({
    row: row as unknown as T,
    position: {
      score: Number(score),
      createdAt: row.created_at,
      seq: row.seq,
      window: { fromSeq: Number(from_seq), toSeq: Number(to_seq) },
    },
  }));

export class SqlMessageSearchIndex implements MessageSearchIndex {
  readonly #db: ServerDatabase;
  readonly #dialect: SqlDialect;
  readonly #match: MatchSyntax;

  constructor(db: ServerDatabase, dialect: SqlDialect) {
    this.#db = db;
    this.#dialect = dialect;
    this.#match = dialect.name === "postgres" ? postgresMatch : sqliteMatch;
  }

  async searchMessages(inboxId: string, terms: SearchTerms, page: RankedPageRequest) {
    // Ranked on the few columns the order needs; only the page's rows are read whole.
    const { rows } = await sql<WithWindow<MessageRow>>`${this.#candidates(sql`m.inbox_id = ${inboxId}`, terms, page)}
      select m.*, page.score, w.from_seq, w.to_seq from (
        select * from candidates ranked
        where ${pastPosition(page.after)}
        order by ranked.score desc, ranked.created_at desc, ranked.seq desc
        limit ${page.limit}
      ) page join messages m on m.seq = page.seq cross join candidate_window w
      order by page.score desc, m.created_at desc, m.seq desc`.execute(this.#db);
    const found = rankedInWindow(rows);
    const attachments = await this.#attachmentsOf(
      inboxId,
      found.map(({ row }) => row.message_id),
    );
    return found.map(({ row, position }) => ({
      row: { message: row, attachments: attachments.get(row.message_id) ?? [], deliveries: [] },
      position,
    }));
  }

  async searchThreads(scope: SearchScope, terms: SearchTerms, page: RankedPageRequest) {
    const inScope =
      "inboxId" in scope
        ? sql`m.inbox_id = ${scope.inboxId}`
        : sql`m.inbox_id in (select inbox_id from inboxes where pod_id = ${scope.podId})`;
    const { rows } = await sql<WithWindow<ThreadRow>>`${this.#candidates(inScope, terms, page)}
      select ranked.*, w.from_seq, w.to_seq from (
        select t.*, hits.score from threads t join (
          select inbox_id, thread_id, max(score) as score from candidates group by inbox_id, thread_id
        ) hits on t.inbox_id = hits.inbox_id and t.thread_id = hits.thread_id
      ) ranked cross join candidate_window w
      where ${pastPosition(page.after)}
      order by ranked.score desc, ranked.created_at desc, ranked.seq desc
      limit ${page.limit}`.execute(this.#db);
    return rankedInWindow(rows);
  }

  async searchInboxes(podId: string, words: readonly string[], exact: string, page: RankedPageRequest) {
    // Both sides folded by the database's own lower(), so a match never depends on which side was folded where.
    const searchable = sql`' ' || ${wordsOf(sql.ref("inbox_id"))} || ' ' || ${wordsOf(sql`coalesce(display_name, '')`)}`;
    const everyWord = sql.join(
      words.map((word) => sql`${searchable} like lower(${`% ${literalPattern(word)}%`}) escape '!'`),
      sql` and `,
    );
    const score = sql`(case when lower(inbox_id) = lower(${exact}) then 2
      when lower(inbox_id) like lower(${`${literalPattern(words[0] ?? "")}%`}) escape '!' then 1 else 0 end)`;
    const { rows } = await sql<WithScore<InboxRow>>`
      select * from (
        select inboxes.*, ${score} as score from inboxes where pod_id = ${podId} and ${everyWord}
      ) ranked
      where ${pastPosition(page.after)}
      order by ranked.score desc, ranked.created_at desc, ranked.seq desc
      limit ${page.limit}`.execute(this.#db);
    return ranked(rows);
  }

  /**
   * The messages a search ranks, as common table expressions: `candidates` (`seq`, `created_at`, `inbox_id`,
   * `thread_id` and `score` of each) and `candidate_window` (its `from_seq` and `to_seq`). A first page takes the
   * {@link MAX_RANKED_MATCHES} most recently stored matches in scope (SQLite walks the index newest first and stops
   * there; PostgreSQL finds the matches through its GIN index and keeps the newest); a later page the matches in scope
   * within its window. That one is not cut at the cap: it held at most the
   * cap when it was chosen, and only a message whose transaction was still open then can join it later, so a later
   * page never loses one of the first page's candidates.
   */
  #candidates(inScope: RawBuilder<unknown>, terms: SearchTerms, page: RankedPageRequest) {
    const { indexedSeq } = this.#match;
    const matching = sql`${this.#match.matching(terms.words)} and ${inScope} ${this.#period(terms)}`;
    const window = page.after?.window;
    const chosen =
      window === undefined
        ? sql`${matching}
            order by ${this.#match.newestOrder} desc limit ${sql.lit(MAX_RANKED_MATCHES)}`
        : // On both sides of the join, so that neither database reads more of either table than the window.
          sql`${matching} and ${indexedSeq} between ${window.fromSeq} and ${window.toSeq}
            and m.seq between ${window.fromSeq} and ${window.toSeq}`;
    const field = (name: keyof typeof RANK_WEIGHTS) =>
      sql`(case when ${this.#match.inField(name, terms.words)} then ${sql.lit(RANK_WEIGHTS[name])} else 0 end)`;
    return sql`with matched as materialized (
        select m.seq, m.created_at, m.inbox_id, m.thread_id from ${chosen}
      ), candidate_window as materialized (
        select min(seq) as from_seq, max(seq) as to_seq from matched
      ), candidates as materialized (
        select matched.*, (${field("subject")} + ${field("addresses")} + ${field("body")}) as score
        from ${this.#match.scored}
      )`;
  }

  #period(terms: SearchTerms) {
    return sql.join(
      [
        sql``,
        ...(terms.before === undefined ? [] : [sql`m.timestamp < ${terms.before}`]),
        ...(terms.after === undefined ? [] : [sql`m.timestamp > ${terms.after}`]),
      ],
      sql` and `,
    );
  }

  async #attachmentsOf(inboxId: string, messageIds: readonly string[]): Promise<Map<string, AttachmentRow[]>> {
    const byMessage = new Map<string, AttachmentRow[]>();
    if (messageIds.length === 0) {
      return byMessage;
    }
    const rows = await this.#db
      .selectFrom("attachments")
      .select(["message_id", "attachment_id", "filename", "content_type", "size"])
      .where("inbox_id", "=", inboxId)
      .where(this.#dialect.inList("message_id", this.#dialect.listParam(messageIds)))
      .orderBy("message_id")
      .orderBy("position")
      .execute();
    for (const { message_id, ...attachment } of rows) {
      byMessage.set(message_id, [...(byMessage.get(message_id) ?? []), attachment]);
    }
    return byMessage;
  }
}

/** A column's text in lower case with the separators of addresses turned into spaces, so words start after them. */
const wordsOf = (column: RawBuilder<unknown>) => {
  let folded: RawBuilder<unknown> = sql`lower(${column})`;
  for (const separator of ["@", ".", "-", "_", "+"]) {
    folded = sql`replace(${folded}, ${sql.lit(separator)}, ' ')`;
  }
  return folded;
};
