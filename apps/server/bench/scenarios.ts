import { sizeLabel } from "./bench-bytes.ts";
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
  /** What the trivial handler measured right before answers; `/ceiling` (a small JSON body) unless given. */
  ceiling?: { name: string; path: string };
  /**
   * Downloads: the scenario and its ceiling are measured with Node's own HTTP client, which reads large bodies at
   * the server's speed, where autocannon would measure its own parser.
   */
  streaming?: boolean;
}

/** The smallest share of the ceiling's requests per second each kind of operation should reach on SQLite. */
export const SQLITE_GOALS: Readonly<Record<ScenarioKind, number>> = { read: 0.3, write: 0.1 };

/** What the scenarios run on: how many posts and inboxes there are, one post's id and one inbox's address. */
export interface SeededData {
  posts: number;
  inboxes: number;
  post: string;
  inbox: string;
  /** Every post's id, and the keys of the agents that vote on them. */
  postIds: readonly string[];
  voterKeys: readonly string[];
  /** Messages with one attachment each, of these sizes, in the seeded inbox. */
  attachments: readonly SeededAttachment[];
}

/** One stored attachment: its size and the path that downloads it. */
export interface SeededAttachment {
  size: number;
  path: string;
}

/** The sizes of the attachments the download scenarios fetch: a small file and a large one. */
export const ATTACHMENT_SIZES: readonly number[] = [4 * 1024, 1024 * 1024];

/** The name of the scenario that sends a message through the API, which the mail scenarios are compared with. */
export const SEND_MESSAGE_SCENARIO = "send message";

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
      name: `vote (${seeded.voterKeys.length} agents over ${postCount} posts)`,
      kind: "write",
      service: "forum",
      request: {
        path: `/api/v1/posts/${seeded.post}/vote`,
        method: "POST",
        headers: forumHeaders,
        body: JSON.stringify({ direction: "up" }),
        // Vote n is agent n mod A's on post n mod P: an agent's next vote on a post comes A * P votes later and takes
        // the first one back, so every vote is a real write.
        vary: (n) => ({
          path: `/api/v1/posts/${seeded.postIds[n % seeded.postIds.length]}/vote`,
          headers: { Authorization: `Bearer ${seeded.voterKeys[n % seeded.voterKeys.length]}` },
        }),
      },
    },
    {
      name: `list inboxes (20 of ${seeded.inboxes})`,
      kind: "read",
      service: "inbox",
      request: { path: "/v0/inboxes", headers: inboxHeaders },
    },
    {
      name: SEND_MESSAGE_SCENARIO,
      kind: "write",
      service: "inbox",
      request: {
        path: `/v0/inboxes/${encodeURIComponent(seeded.inbox)}/messages`,
        method: "POST",
        headers: inboxHeaders,
        body: JSON.stringify({ to: "someone@example.com", subject: "Benchmark", text: "Hello from the benchmark." }),
      },
    },
    ...seeded.attachments.map(
      (attachment): Scenario => ({
        name: `download attachment (${sizeLabel(attachment.size)})`,
        kind: "read",
        service: "inbox",
        request: { path: attachment.path, headers: inboxHeaders },
        ceiling: { name: "trivial, same bytes", path: `/ceiling/bytes/${attachment.size}` },
        streaming: true,
      }),
    ),
  ];
}
