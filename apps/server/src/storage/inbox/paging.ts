import { type Selectable, sql } from "kysely";
import type { PageCursor } from "../../inbox/page-token.ts";
import type { ServerDatabase } from "../database.ts";
import { PreparedQuery } from "../prepared-query.ts";
import { rowLimit } from "../row-limit.ts";
import type { DatabaseSchema as Tables } from "../schema.ts";

/** A row of a newest-first list with its position, from which the next page starts. */
export interface Positioned<T> {
  item: T;
  cursor: PageCursor;
}

export interface PageRequest {
  /** Rows to fetch (the page size plus one, to learn whether more follow). */
  limit: number;
  after?: PageCursor;
}

/** Keyset condition of newest-first lists: rows strictly after the cursor in `(created_at, seq)` descending order. */
const beforeCursor = ({ createdAt, seq }: PageCursor) => sql<boolean>`(created_at, seq) < (${createdAt}, ${seq})`;

/** The position of a listed row, from which the page after it starts. */
export const cursorOf = (row: { created_at: string; seq: number }): PageCursor => ({
  createdAt: row.created_at,
  seq: row.seq,
});

/** The tables listed newest first, and the column each list is scoped by (the tenant, or the inbox). */
interface NewestFirstScopes {
  inboxes: "pod_id";
  webhooks: "pod_id";
  messages: "inbox_id";
  threads: "inbox_id";
}

/**
 * The newest-first keyset list of one table within one scope (a tenant's inboxes, an inbox's messages, ...): the first
 * page, or the page after a cursor, as two prepared queries.
 */
export function newestFirst<Table extends keyof NewestFirstScopes>(table: Table, scope: NewestFirstScopes[Table]) {
  // Kysely cannot follow a column through a generic table name; every table here has the scope, created_at and seq.
  const from = (db: ServerDatabase) => db.selectFrom(table as "inboxes").selectAll();
  const column = scope as "pod_id";
  const first = new PreparedQuery((db, p: { scope: string; limit: number }) =>
    from(db).where(column, "=", p.scope).orderBy("created_at", "desc").orderBy("seq", "desc").limit(rowLimit(p.limit)),
  );
  const after = new PreparedQuery((db, p: { scope: string; limit: number; createdAt: string; seq: number }) =>
    from(db)
      .where(column, "=", p.scope)
      .where(beforeCursor(p))
      .orderBy("created_at", "desc")
      .orderBy("seq", "desc")
      .limit(rowLimit(p.limit)),
  );
  return async (db: ServerDatabase, scopeValue: string, page: PageRequest): Promise<Selectable<Tables[Table]>[]> => {
    const rows = page.after
      ? await after.rows(db, { scope: scopeValue, limit: page.limit, ...page.after })
      : await first.rows(db, { scope: scopeValue, limit: page.limit });
    return rows as unknown as Selectable<Tables[Table]>[];
  };
}
