import type { ServerDatabase } from "../database.ts";
import type { MessageRow } from "../schema.ts";
import type { SqlDialect } from "../sql-dialect.ts";
import { containsIgnoringCase, likeIgnoringCase, literalPattern } from "./like-pattern.ts";

/** What a message must match, every field given (test control's wait): any pod, any inbox unless named. */
export interface MessageSearch {
  /** The inbox holding the copy, as stored (lower case). */
  inboxId?: string;
  /** The sender's address, without regard to case; a display name around it is ignored. */
  from?: string;
  /** One of the `to` addresses, without regard to case. */
  to?: string;
  /** Contained in the subject, without regard to case. */
  subject?: string;
  /** Contained in the text or the html body, without regard to case. */
  text?: string;
  /** Every one of these labels. */
  labels?: readonly string[];
  /** Created at or after this ISO 8601 timestamp. */
  since?: string;
}

/**
 * The newest message matching every field of the search, by `(created_at, seq)`. The database does the matching,
 * so a large store is never read into the process. Senders are stored as `address` or `Name <address>`, and address
 * lists as JSON arrays of addresses, so exact addresses are matched as the whole value or within its delimiters.
 */
export async function findNewestMessage(
  db: ServerDatabase,
  dialect: SqlDialect,
  search: MessageSearch,
): Promise<MessageRow | null> {
  let query = db.selectFrom("messages").selectAll();
  if (search.inboxId !== undefined) {
    query = query.where("inbox_id", "=", search.inboxId);
  }
  if (search.since !== undefined) {
    query = query.where("created_at", ">=", search.since);
  }
  if (search.labels !== undefined && search.labels.length > 0) {
    query = query.where(dialect.containsAll("labels", dialect.listParam(search.labels)));
  }
  const { from, to, subject, text } = search;
  if (from !== undefined) {
    query = query.where((eb) =>
      eb.or([
        likeIgnoringCase("sender", literalPattern(from)),
        likeIgnoringCase("sender", `%<${literalPattern(from)}>`),
      ]),
    );
  }
  if (to !== undefined) {
    // The address as a JSON string, quotes included, so that `a@x.test` does not match `ba@x.test`.
    query = query.where(likeIgnoringCase("to_addresses", `%${literalPattern(JSON.stringify(to))}%`));
  }
  if (subject !== undefined) {
    query = query.where(containsIgnoringCase("subject", subject));
  }
  if (text !== undefined) {
    query = query.where((eb) =>
      eb.or([containsIgnoringCase("text_body", text), containsIgnoringCase("html_body", text)]),
    );
  }
  const row = await query.orderBy("created_at", "desc").orderBy("seq", "desc").limit(1).executeTakeFirst();
  return row ?? null;
}
