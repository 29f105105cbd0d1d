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

/** Where a ranked list stands: the rank, then `(created_at, seq)` of the last row listed (newest first among equals). */
export interface RankedPosition {
  score: number;
  createdAt: string;
  seq: number;
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
  searchMessages(
    inboxId: string,
    terms: SearchTerms,
    page: RankedPageRequest,
  ): Promise<Ranked<MessageWithAttachments>[]>;
  /** Threads holding a matching message, ranked by their best one. */
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

/** How each database matches a set of words in some fields of the index. */
interface MatchSyntax {
  /** The index joined to `messages m`, filtered to messages having every word in some field. */
  matching(words: readonly string[]): RawBuilder<unknown>;
  /** Whether message `m` has every word in `field`. */
  inField(field: keyof typeof RANK_WEIGHTS, words: readonly string[]): RawBuilder<unknown>;
}

// FTS5 query syntax: each word quoted (it holds only letters and digits) and `*` for a prefix.
const ftsQuery = (words: readonly string[]) => words.map((word) => `"${word}"*`).join(" AND ");

const sqliteMatch: MatchSyntax = {
  matching: (words) =>
    sql`message_search join messages m on m.seq = message_search.rowid where message_search match ${ftsQuery(words)}`,
  inField: (field, words) =>
    sql`m.seq in (select rowid from message_search where message_search match ${`{${field}} : (${ftsQuery(words)})`})`,
};

// tsquery syntax: `:*` for a prefix, and the weight letter of a field (migration 0011).
const WEIGHT_LETTERS = { subject: "A", addresses: "B", body: "C" } as const;
const tsQuery = (words: readonly string[], weight = "") => words.map((word) => `${word}:*${weight}`).join(" & ");

const postgresMatch: MatchSyntax = {
  matching: (words) =>
    sql`message_search s join messages m on m.seq = s.seq where s.document @@ to_tsquery('simple', ${tsQuery(words)})`,
  inField: (field, words) => sql`s.document @@ to_tsquery('simple', ${tsQuery(words, WEIGHT_LETTERS[field])})`,
};

/** Rows past `after` in the order `score desc, created_at desc, seq desc`, of a subquery named `ranked`. */
const pastPosition = (after: RankedPosition | undefined) =>
  after === undefined
    ? sql`1 = 1`
    : sql`(ranked.score < ${after.score} or (ranked.score = ${after.score}
        and (ranked.created_at, ranked.seq) < (${after.createdAt}, ${after.seq})))`;

type WithScore<T> = T & { score: number | string };

const ranked = <T extends { created_at: string; seq: number }>(rows: WithScore<T>[]): Ranked<T>[] =>
  rows.map(({ score, ...row }) => {
    const numeric = Number(score);
    return { row: row as unknown as T, position: { score: numeric, createdAt: row.created_at, seq: row.seq } };
  });

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
    const { rows } = await sql<WithScore<MessageRow>>`
      select * from (
        select m.*, ${this.#score(terms.words)} as score
        from ${this.#match.matching(terms.words)} and m.inbox_id = ${inboxId} ${this.#period(terms)}
      ) ranked
      where ${pastPosition(page.after)}
      order by ranked.score desc, ranked.created_at desc, ranked.seq desc
      limit ${page.limit}`.execute(this.#db);
    const found = ranked(rows);
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
    const { rows } = await sql<WithScore<ThreadRow>>`
      select * from (
        select t.*, hits.score from threads t join (
          select m.inbox_id, m.thread_id, max(${this.#score(terms.words)}) as score
          from ${this.#match.matching(terms.words)} and ${inScope} ${this.#period(terms)}
          group by m.inbox_id, m.thread_id
        ) hits on t.inbox_id = hits.inbox_id and t.thread_id = hits.thread_id
      ) ranked
      where ${pastPosition(page.after)}
      order by ranked.score desc, ranked.created_at desc, ranked.seq desc
      limit ${page.limit}`.execute(this.#db);
    return ranked(rows);
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

  #score(words: readonly string[]) {
    const field = (name: keyof typeof RANK_WEIGHTS) =>
      sql`(case when ${this.#match.inField(name, words)} then ${sql.lit(RANK_WEIGHTS[name])} else 0 end)`;
    return sql`(${field("subject")} + ${field("addresses")} + ${field("body")})`;
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
