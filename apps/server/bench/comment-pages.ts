// Pages of one post's threaded comments at 10,000 and 50,000 comments, on SQLite and on PostgreSQL, each measured in
// the same run as getting the post, the baseline read. Comments are written straight into the database in batches,
// as threads of replies up to the depth limit, with made-up votes; one in-process server answers, autocannon loads
// it over HTTP on 127.0.0.1.
// Usage: node bench/comment-pages.ts. BENCH_BACKENDS (sqlite,postgres), BENCH_COMMENTS (10000,50000),
// BENCH_SECONDS (3), BENCH_CONNECTIONS (4), BENCH_DATABASE_URL (an empty PostgreSQL database; by default a
// throw-away cluster).
import type { Insertable } from "kysely";
import { hotRank } from "../src/forum/hot-rank.ts";
import { newUuid } from "../src/ids.ts";
import { startServer } from "../src/server.ts";
import type { ServerDatabase } from "../src/storage/database.ts";
import { MAX_COMMENT_DEPTH } from "../src/storage/forum/comment-store.ts";
import { DEFAULT_COMMUNITY } from "../src/storage/forum/default-community.ts";
import type { ForumCommentTable } from "../src/storage/schema.ts";
import { devAgentId, listSetting, onEachDatabase, UNLIMITED } from "./forum-bench-databases.ts";
import { runLoad } from "./load.ts";

const out = (line = "") => process.stdout.write(`${line}\n`);

const backends = listSetting(process.env.BENCH_BACKENDS, "sqlite,postgres");
const sizes = listSetting(process.env.BENCH_COMMENTS, "10000,50000").map(Number);
const seconds = Number(process.env.BENCH_SECONDS || "3");
const connections = Number(process.env.BENCH_CONNECTIONS || "4");

/** Rows per insert statement. */
const BATCH = 500;

/**
 * Writes a post with `count` comments: a fifth at top level, the rest replies, mostly to recent comments so that
 * threads run deep. The database counts each comment's replies as they are stored, parents first.
 */
async function seedThread(db: ServerDatabase, authorId: string, count: number): Promise<string> {
  const postId = newUuid();
  const start = Date.now() - 86_400_000;
  await db
    .insertInto("forum_posts")
    .values({
      post_id: postId,
      community_id: DEFAULT_COMMUNITY.id,
      author_id: authorId,
      title: `A post with ${count} comments`,
      content: "Discuss.",
      url: null,
      upvotes: 0,
      downvotes: 0,
      comment_count: count,
      hot_rank: hotRank(0, 0, start),
      created_at: new Date(start).toISOString(),
      created_at_ms: start,
    })
    .execute();
  type Row = Insertable<ForumCommentTable> & { comment_id: string; depth: number };
  const rows: Row[] = [];
  for (let i = 0; i < count; i++) {
    const recent = rows[rows.length - 1 - (i % 3)];
    const parent = i % 5 === 0 || !recent ? null : recent.depth < MAX_COMMENT_DEPTH ? recent : null;
    const upvotes = (i * 7) % 11;
    const row: Row = {
      comment_id: newUuid(),
      post_id: postId,
      parent_id: parent?.comment_id ?? null,
      author_id: authorId,
      content: `Comment ${i}.`,
      created_at: new Date(start + i * 10).toISOString(),
      deleted_at: null,
      upvotes,
      downvotes: (i * 3) % 5,
      depth: parent ? parent.depth + 1 : 0,
    };
    rows.push(row);
  }
  for (let i = 0; i < rows.length; i += BATCH) {
    await db
      .insertInto("forum_comments")
      .values(rows.slice(i, i + BATCH))
      .execute();
  }
  return postId;
}

async function measure(location: string, postId: string, comments: number): Promise<void> {
  const server = await startServer({
    database: location,
    inboxPort: 0,
    forumPort: 0,
    logger: false,
    limits: UNLIMITED,
  });
  try {
    const headers = { Authorization: `Bearer ${server.forum.apiKey}` };
    const page = (query: string) => ({ path: `/api/v1/posts/${postId}/comments?${query}`, headers });
    const scenarios = [
      { name: "baseline: get the post", request: { path: `/api/v1/posts/${postId}`, headers } },
      { name: "first page, top (25)", request: page("sort=top") },
      { name: "first page, new (25)", request: page("sort=new") },
      { name: "first page, controversial (25)", request: page("sort=controversial") },
      { name: "middle page, top (100)", request: page(`sort=top&limit=100&offset=${comments / 2}`) },
      { name: "last page, top (100)", request: page(`sort=top&limit=100&offset=${comments - 100}`) },
    ];
    let baseline = 0;
    for (const { name, request } of scenarios) {
      await runLoad([server.forum.url], request, connections, 1); // warm-up
      const load = await runLoad([server.forum.url], request, connections, seconds);
      baseline ||= load.p50;
      const ratio = baseline > 0 ? ` | ${(load.p50 / baseline).toFixed(1)}x baseline p50` : "";
      out(
        `${comments.toLocaleString("en")} comments | ${name.padEnd(32)} | ${load.rps.toFixed(0).padStart(6)} req/s | p50 ${load.p50} ms | p99 ${load.p99} ms${ratio}`,
      );
    }
  } finally {
    await server.close();
  }
}

async function runOn(title: string, location: string, open: () => Promise<ServerDatabase>): Promise<void> {
  out(`\n${title}`);
  const authorId = await devAgentId(location);
  for (const size of sizes) {
    const db = await open();
    let postId: string;
    try {
      postId = await seedThread(db, authorId, size);
    } finally {
      await db.destroy();
    }
    await measure(location, postId, size);
  }
}

out(`Comment pages: ${connections} connections, ${seconds} s per scenario (after 1 s of warm-up).`);
await onEachDatabase(backends, runOn);
