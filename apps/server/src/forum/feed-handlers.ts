import { withSpecDefault } from "../http/operation-types.ts";
import type { FeedStore } from "../storage/forum/feed-store.ts";
import type { ForumHandlers } from "./forum-handlers.ts";
import { toPost } from "./records.ts";

/** The caller's feed, paged as the post list. */
export function createFeedHandlers(feed: FeedStore): Pick<ForumHandlers, "getFeed"> {
  return {
    async getFeed({ query }, { caller }) {
      const limit = withSpecDefault(query.limit, "limit");
      const offset = withSpecDefault(query.offset, "offset");
      const rows = await feed.listFeed(caller.agentId, {
        sort: withSpecDefault(query.sort, "sort"),
        limit: limit + 1,
        offset,
      });
      const posts = rows.slice(0, limit);
      return {
        status: 200,
        body: {
          success: true,
          posts: posts.map(toPost),
          count: posts.length,
          has_more: rows.length > limit,
          next_offset: offset + posts.length,
        },
      };
    },
  };
}
