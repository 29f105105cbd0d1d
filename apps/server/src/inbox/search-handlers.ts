import { createHash } from "node:crypto";
import { withSpecDefault } from "../http/operation-types.ts";
import { normalizeAddress } from "../mail/mail-address.ts";
import type {
  MessageSearchIndex,
  Ranked,
  RankedPageRequest,
  RankedPosition,
  SearchTerms,
} from "../storage/inbox/full-text-search.ts";
import type { InboxRow } from "../storage/schema.ts";
import { InboxProblem } from "./inbox-errors.ts";
import type { InboxHandlers } from "./inbox-handlers.ts";
import type { PageTokens } from "./page-token.ts";
import { toInbox, toMessageItem, toThreadItem } from "./records.ts";

/** Words one search may hold: each is a term the index looks up, so their number bounds a search's work. */
export const MAX_SEARCH_WORDS = 32;

export interface SearchHandlerDependencies {
  search: MessageSearchIndex;
  pageTokens: PageTokens;
  ownInbox(podId: string, inboxId: string): Promise<InboxRow>;
}

type SearchQuery = { q: string; limit?: number; page_token?: string; before?: string; after?: string };

/** The words of a query as the index splits text: runs of letters and digits. A 400 when there are none, or too many. */
export function searchWords(q: string): string[] {
  const words = q.match(/[\p{L}\p{N}]+/gu) ?? [];
  if (words.length === 0) {
    throw new InboxProblem(400, "INVALID_VALUE", `q: '${q}' has no word to search for; give letters or digits.`, {
      field: "q",
    });
  }
  if (words.length > MAX_SEARCH_WORDS) {
    throw new InboxProblem(400, "INVALID_VALUE", `q: holds ${words.length} words; at most ${MAX_SEARCH_WORDS}.`, {
      field: "q",
    });
  }
  return words;
}

/** An ISO 8601 date-time (the spec checked its form) as stored timestamps are written, in UTC with milliseconds. */
function instant(value: string | undefined, field: string): string | undefined {
  if (value === undefined) {
    return undefined;
  }
  const time = Date.parse(value);
  if (Number.isNaN(time)) {
    throw new InboxProblem(400, "INVALID_VALUE", `${field}: '${value}' is not a valid date-time.`, { field });
  }
  return new Date(time).toISOString();
}

function searchTerms(query: SearchQuery): SearchTerms {
  return {
    words: searchWords(query.q),
    before: instant(query.before, "before"),
    after: instant(query.after, "after"),
  };
}

/**
 * A page token's scope for one search: the list it pages and a digest of the exact terms, so a token of another query
 * (which would land anywhere in this one's ranking) is refused.
 */
const searchScope = (list: string, terms: unknown) =>
  `search:${list}:${createHash("sha256").update(JSON.stringify(terms)).digest("base64url")}`;

// A ranked position in a page token's cursor: the rank travels with the `created_at` it precedes.
const toCursor = ({ score, createdAt, seq }: RankedPosition) => ({ createdAt: `${score}|${createdAt}`, seq });
function fromCursor({ createdAt, seq }: { createdAt: string; seq: number }): RankedPosition {
  const bar = createdAt.indexOf("|");
  return { score: Number(createdAt.slice(0, bar)), createdAt: createdAt.slice(bar + 1), seq };
}

/** Search over the pod's inboxes, an inbox's messages and threads, and the pod's threads (full text, best first). */
export function createSearchHandlers(
  deps: SearchHandlerDependencies,
): Pick<InboxHandlers, "searchInboxes" | "searchMessages" | "searchThreads" | "searchPodThreads"> {
  const { search, pageTokens } = deps;

  /** Runs one ranked search and shapes its page, with `next_page_token` bound to this search. */
  async function rankedPage<Row, Item>(
    scope: string,
    query: { limit?: number; page_token?: string },
    fetch: (page: RankedPageRequest) => Promise<Ranked<Row>[]>,
    toItem: (row: Row) => Item,
  ) {
    const limit = withSpecDefault(query.limit, "limit");
    const after = query.page_token === undefined ? undefined : fromCursor(pageTokens.read(scope, query.page_token));
    const rows = await fetch({ limit: limit + 1, after });
    const pageRows = rows.slice(0, limit);
    const last = pageRows.at(-1);
    const nextPageToken = rows.length > limit && last ? pageTokens.issue(scope, toCursor(last.position)) : null;
    return {
      count: pageRows.length,
      limit,
      next_page_token: nextPageToken,
      items: pageRows.map(({ row }) => toItem(row)),
    };
  }

  return {
    async searchInboxes({ query }, { caller }) {
      const words = searchWords(query.q);
      const exact = normalizeAddress(query.q.trim());
      const { items, ...page } = await rankedPage(
        searchScope(`inboxes:${caller.podId}`, [words, exact]),
        query,
        (request) => search.searchInboxes(caller.podId, words, exact, request),
        toInbox,
      );
      return { status: 200, body: { ...page, inboxes: items } };
    },

    async searchMessages({ path, query }, { caller }) {
      const terms = searchTerms(query);
      const inbox = await deps.ownInbox(caller.podId, path.inbox_id);
      const { items, ...page } = await rankedPage(
        searchScope(`messages:${inbox.inbox_id}`, terms),
        query,
        (request) => search.searchMessages(inbox.inbox_id, terms, request),
        ({ message, attachments }) => toMessageItem(message, attachments),
      );
      return { status: 200, body: { ...page, messages: items } };
    },

    async searchThreads({ path, query }, { caller }) {
      const terms = searchTerms(query);
      const inbox = await deps.ownInbox(caller.podId, path.inbox_id);
      const { items, ...page } = await rankedPage(
        searchScope(`threads:${inbox.inbox_id}`, terms),
        query,
        (request) => search.searchThreads({ inboxId: inbox.inbox_id }, terms, request),
        toThreadItem,
      );
      return { status: 200, body: { ...page, threads: items } };
    },

    async searchPodThreads({ query }, { caller }) {
      const terms = searchTerms(query);
      const { items, ...page } = await rankedPage(
        searchScope(`pod-threads:${caller.podId}`, terms),
        query,
        (request) => search.searchThreads({ podId: caller.podId }, terms, request),
        toThreadItem,
      );
      return { status: 200, body: { ...page, threads: items } };
    },
  };
}
