// Full-text search over the forum's posts at 10,000 and 100,000 posts, on SQLite and on PostgreSQL, each measured in
// the same run as listing posts (hot), the baseline read. Posts are written straight into the database in batches;
// one in-process server answers, autocannon loads it over HTTP on 127.0.0.1.
// Usage: node bench/forum-search.ts. BENCH_BACKENDS (sqlite,postgres), BENCH_SEARCH_POSTS (10000,100000),
// BENCH_SECONDS (5), BENCH_CONNECTIONS (10), BENCH_DATABASE_URL (an empty PostgreSQL database; by default a
// throw-away cluster).
import { startServer } from "../src/server.ts";
import type { ServerDatabase } from "../src/storage/database.ts";
import { devAgentId, listSetting, onEachDatabase, UNLIMITED } from "./forum-bench-databases.ts";
import type { LoadRequest } from "./load.ts";
import { runLoad } from "./load.ts";
import { COMMON_WORD, SEARCH_WORDS, seedSearchPosts } from "./search-seed.ts";

const out = (line = "") => process.stdout.write(`${line}\n`);

const backends = listSetting(process.env.BENCH_BACKENDS, "sqlite,postgres");
const sizes = listSetting(process.env.BENCH_SEARCH_POSTS, "10000,100000").map(Number);
const seconds = Number(process.env.BENCH_SECONDS || "5");
const connections = Number(process.env.BENCH_CONNECTIONS || "10");

function scenarios(key: string): { name: string; request: LoadRequest }[] {
  const headers = { Authorization: `Bearer ${key}` };
  const rare = SEARCH_WORDS[42] ?? "plan";
  const search = (q: string, type = "all") => `/api/v1/search?q=${encodeURIComponent(q)}&type=${type}`;
  return [
    { name: "baseline: list posts (hot, 25)", request: { path: "/api/v1/posts?sort=hot", headers } },
    { name: `search posts, 1 word in 1% (q=${rare})`, request: { path: search(rare, "posts"), headers } },
    {
      name: "search all, 1 word in 1% (a word per request)",
      request: {
        path: search(rare),
        headers,
        vary: (n) => ({ path: search(SEARCH_WORDS[n % SEARCH_WORDS.length] ?? rare), headers }),
      },
    },
    { name: `search all, 2 words (q=${rare} post)`, request: { path: search(`${rare} post`), headers } },
    { name: `search all, every post matches (q=${COMMON_WORD})`, request: { path: search(COMMON_WORD), headers } },
  ];
}

async function measure(location: string, posts: number): Promise<void> {
  const server = await startServer({
    database: location,
    inboxPort: 0,
    forumPort: 0,
    logger: false,
    limits: UNLIMITED,
  });
  try {
    const key = server.forum.apiKey ?? "";
    for (const { name, request } of scenarios(key)) {
      await runLoad([server.forum.url], request, connections, 1); // warm-up
      const load = await runLoad([server.forum.url], request, connections, seconds);
      const line = `${posts.toLocaleString("en")} posts | ${name.padEnd(52)} | ${load.rps.toFixed(0).padStart(6)} req/s | p50 ${load.p50} ms | p99 ${load.p99} ms`;
      out(line);
    }
  } finally {
    await server.close();
  }
}

async function runOn(title: string, location: string, open: () => Promise<ServerDatabase>): Promise<void> {
  out(`\n${title}`);
  const authorId = await devAgentId(location);
  let seeded = 0;
  for (const size of sizes) {
    const db = await open();
    const started = performance.now();
    try {
      await seedSearchPosts(db, authorId, seeded, size);
    } finally {
      await db.destroy();
    }
    out(
      `seeded ${(size - seeded).toLocaleString("en")} posts in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    seeded = size;
    await measure(location, size);
  }
}

out(`Forum search: ${connections} connections, ${seconds} s per scenario (after 1 s of warm-up).`);
await onEachDatabase(backends, runOn);
