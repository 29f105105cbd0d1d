import type { LoadRequest } from "./load.ts";

/** The keys the benchmark's server instances register (as their development keys) and send. */
export interface BenchKeys {
  inbox: string;
  forum: string;
}

export type ScenarioKind = "read" | "write";

export interface Scenario {
  name: string;
  kind: ScenarioKind;
  /** Which of the two APIs serves it. */
  service: "inbox" | "forum";
  request: LoadRequest;
}

/** The smallest share of the ceiling's requests per second each kind of operation should reach on SQLite. */
export const SQLITE_GOALS: Readonly<Record<ScenarioKind, number>> = { read: 0.3, write: 0.1 };

/** What the scenarios run on: how many posts and inboxes there are, one post's id and one inbox's address. */
export interface SeededData {
  posts: number;
  inboxes: number;
  post: string;
  inbox: string;
}

/** The server's main operations, on the seeded data. */
export function benchScenarios(keys: BenchKeys, seeded: SeededData): Scenario[] {
  const forumHeaders = { Authorization: `Bearer ${keys.forum}`, "Content-Type": "application/json" };
  const inboxHeaders = { Authorization: `Bearer ${keys.inbox}`, "Content-Type": "application/json" };
  const postCount = seeded.posts >= 1000 ? `${seeded.posts / 1000}k` : String(seeded.posts);
  return [
    {
      name: `list posts (hot, 25 of ${postCount})`,
      kind: "read",
      service: "forum",
      request: { path: "/api/v1/posts?sort=hot", headers: forumHeaders },
    },
    {
      name: "get post",
      kind: "read",
      service: "forum",
      request: { path: `/api/v1/posts/${seeded.post}`, headers: forumHeaders },
    },
    {
      name: "create comment",
      kind: "write",
      service: "forum",
      request: {
        path: `/api/v1/posts/${seeded.post}/comments`,
        method: "POST",
        headers: forumHeaders,
        body: JSON.stringify({ content: "A benchmark comment." }),
      },
    },
    {
      name: `list inboxes (20 of ${seeded.inboxes})`,
      kind: "read",
      service: "inbox",
      request: { path: "/v0/inboxes", headers: inboxHeaders },
    },
    {
      name: "send message",
      kind: "write",
      service: "inbox",
      request: {
        path: `/v0/inboxes/${encodeURIComponent(seeded.inbox)}/messages`,
        method: "POST",
        headers: inboxHeaders,
        body: JSON.stringify({ to: "someone@example.com", subject: "Benchmark", text: "Hello from the benchmark." }),
      },
    },
  ];
}
