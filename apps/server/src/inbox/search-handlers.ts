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
import { type SummarizedThread, withSummaries } from "../storage/inbox/thread-summaries.ts";
import type { InboxRow, ThreadRow } from "../storage/schema.ts";
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
  /** The threads with what their messages say, for thread results (see thread-summaries.ts). */
  summarizeThreads(threads: readonly ThreadRow[]): Promise<SummarizedThread[]>;
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

// A ranked position in a page token's cursor: the rank and the window of candidates ranked travel with the
// `created_at` they precede, as `score|fromSeq|toSeq|created_at` (the window's bounds empty when there is none).
const toCursor = ({ score, createdAt, seq, window }: RankedPosition) => ({
  createdAt: [score, window?.fromSeq ?? "", window?.toSeq ?? "", createdAt].join("|"),
  seq,
});
function fromCursor({ createdAt, seq }: { createdAt: string; seq: number }): RankedPosition {
  const [score, fromSeq, toSeq, at, ...rest] = createdAt.split("|");
  if (at === undefined || rest.length > 0) {
    // Issued by a server that wrote cursors otherwise: sealed by us, but not a position this one can read.
    throw new InboxProblem(400, "INVALID_PAGE_TOKEN", "page_token: this page token is no longer valid; search again.", {
      field: "page_token",
    });
  }
  const position = { score: Number(score), createdAt: at, seq };
  return fromSeq && toSeq ? { ...position, window: { fromSeq: Number(fromSeq), toSeq: Number(toSeq) } } : position;
}

/** Search over the pod's inboxes, an inbox's messages and threads, and the pod's threads (full text, best first). */
export function createSearchHandlers(
  deps: SearchHandlerDependencies,
): Pick<InboxHandlers, "searchInboxes" | "searchMessages" | "searchThreads" | "searchPodThreads"> {
  const { search, pageTokens } = deps;

  /** Ranked threads with their summaries, in two statements for the whole page. */
  const summarized = async (ranked: Promise<Ranked<ThreadRow>[]>): Promise<Ranked<SummarizedThread>[]> =>
    withSummaries(await ranked, deps.summarizeThreads);

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
        (request) => summarized(search.searchThreads({ inboxId: inbox.inbox_id }, terms, request)),
        toThreadItem,
      );
      return { status: 200, body: { ...page, threads: items } };
    },

    async searchPodThreads({ query }, { caller }) {
      const terms = searchTerms(query);
      const { items, ...page } = await rankedPage(
        searchScope(`pod-threads:${caller.podId}`, terms),
        query,
        (request) => summarized(search.searchThreads({ podId: caller.podId }, terms, request)),
        toThreadItem,
      );
      return { status: 200, body: { ...page, threads: items } };
    },
  };
}
