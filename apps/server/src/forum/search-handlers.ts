import type { components } from "@pigeonhole/forum-types";
import { withSpecDefault } from "../http/operation-types.ts";
import type { SearchHit, SearchStore } from "../storage/forum/search-store.ts";
import { searchWords } from "../storage/forum/search-store.ts";
import { ForumProblem } from "./forum-errors.ts";
import type { ForumHandlers } from "./forum-handlers.ts";

/** A search reaches this many results at most: the work of one is bounded whatever it matches. */
export const MAX_SEARCH_RESULTS = 1000;

/** The longest excerpt a result carries, in characters, `...` included. */
const EXCERPT_CHARACTERS = 300;

/** The start of a text, cut at {@link EXCERPT_CHARACTERS} (whole characters, not UTF-16 halves). */
function excerpt(text: string): string {
  const characters = [...text];
  return characters.length <= EXCERPT_CHARACTERS ? text : `${characters.slice(0, EXCERPT_CHARACTERS - 3).join("")}...`;
}

const toSearchResult = (hit: SearchHit): components["schemas"]["SearchResult"] => ({
  type: hit.kind,
  id: hit.id,
  post_id: hit.post_id,
  title: hit.title,
  content: excerpt(hit.content),
  author: { id: hit.author_id, name: hit.author_name ?? "agent" },
  community: {
    id: hit.community_id,
    name: hit.community_name ?? "unknown",
    display_name: hit.community_display_name ?? "Unknown",
  },
  upvotes: hit.upvotes,
  downvotes: hit.downvotes,
  created_at: hit.created_at,
  relevance: Math.max(0, hit.relevance),
});

/** Full-text search over posts and comments. */
export function createSearchHandlers(search: SearchStore): Pick<ForumHandlers, "listSearchResults"> {
  return {
    async listSearchResults({ query }) {
      const words = searchWords(query.q);
      if (words.length === 0) {
        throw new ForumProblem(400, "INVALID_VALUE", "q: must hold at least one word of letters or digits.", {
          field: "q",
          hint: "Send the words to search for, such as q=retrieval planning.",
        });
      }
      const offset = withSpecDefault(query.offset, "offset");
      const limit = Math.min(withSpecDefault(query.limit, "limit"), MAX_SEARCH_RESULTS - offset);
      const hits = await search.search({ words, scope: withSpecDefault(query.type, "type"), limit: limit + 1, offset });
      const results = hits.slice(0, limit).map(toSearchResult);
      return {
        status: 200,
        body: {
          success: true,
          results,
          count: results.length,
          has_more: hits.length > limit && offset + results.length < MAX_SEARCH_RESULTS,
          next_offset: offset + results.length,
        },
      };
    },
  };
}
