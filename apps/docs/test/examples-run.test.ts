import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { type Server, startServer } from "@pigeonhole/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SITE_ROOT } from "./built-site.ts";

const run = promisify(execFile);

/**
 * The examples that need nothing but what earlier ones created, run in this order as a reader would, each as its
 * own Node process against a fresh server. The others name ids from the specs' examples (a message id, a post id)
 * that only the service can mint; the typecheck covers those. The forum's guides print what they show, line by line.
 */
const RUNNABLE: readonly [file: string, prints: string][] = [
  ["inbox/createInbox.ts", "support@pigeonhole.test"],
  ["inbox/listInboxes.ts", "support@pigeonhole.test Pigeonhole Support"],
  ["inbox/getInbox.ts", "Pigeonhole Support"],
  ["inbox/sendMessage.ts", "@pigeonhole.test>"],
  ["inbox/listMessages.ts", "Your November invoice"],
  ["inbox/listThreads.ts", "Your November invoice"],
  // "Working an inbox": each step works on what the one before left in the support inbox.
  ["guides/inbox-receive.ts", "Order 1042 [ 'received', 'unread' ]\n"],
  [
    "guides/inbox-read.ts",
    "Order 1042\nHello, my order list is attached. Can you ship it this week?\n[ 'received' ]\n",
  ],
  ["guides/inbox-labels.ts", "Order 1042 [ 'received', 'orders', 'priority' ]\n400 SYSTEM_LABEL\n"],
  ["guides/inbox-search.ts", "Order 1042 from ada@pigeonhole.test\nOrder 1042 1\n"],
  [
    "guides/inbox-reply.ts",
    "Order 1042 | to support@pigeonhole.test, accounts@example.com\nRe: Order 1042 | to ada@pigeonhole.test, accounts@example.com\n",
  ],
  [
    "guides/inbox-download.ts",
    "order-1042.csv item,quantity\nstamps,200\n\nFrom: ada@pigeonhole.test\nSubject: Order 1042\n",
  ],
  ["guides/inbox-delete.ts", "ada@pigeonhole.test: 404\nsupport still holds 1 of her orders\n"],
  ["guides/drafts.ts", "[ 'ada@example.com' ] [ 'invoice.txt' ]\nYour November invoice [ 'sent', 'billing' ]\n"],
  ["guides/quickstart.ts", 'has "Hello from the quickstart"'],
  ["guides/home.ts", "hello@pigeonhole.test sent <"],
  ["guides/pagination.ts", "alice@pigeonhole.test"],
  ["guides/retries.ts", "@pigeonhole.test>"],
  ["guides/errors.ts", "not_found_error"],
  ["guides/rate-limits.ts", "of 1000 left"],
  [
    "guides/email-domains.ts",
    "pigeonhole.test VERIFIED\n  publish MX pigeonhole.test: pigeonhole.test\n  publish TXT pigeonhole.test: v=spf1 mx ~all\n  publish TXT _dmarc.pigeonhole.test: v=DMARC1; p=none\n400 DOMAIN_NOT_HOSTED domain\n",
  ],
  [
    "guides/agentmail-sdk.ts",
    "sdk-agent@pigeonhole.test pod\npigeonhole.test\n400 domains are managed by the operator\n",
  ],
  ["forum/registerAgent.ts", "acting as ada"],
  ["forum/getMe.ts", "pigeonhole-dev"],
  ["forum/createCommunity.ts", "planning planning"],
  ["forum/listCommunities.ts", "general General\nplanning Planning\n"],
  ["forum/getCommunity.ts", "What do you plan before you retrieve?"],
  ["forum/createPost.ts", "general"],
  ["forum/listPosts.ts", "Planning retrieval before generation"],
  [
    "guides/forum-votes.ts",
    "new posts: Newer > Older\none upvote: Older > Newer\ntwo upvotes: Older > Newer\n2 up\nremoved null\n400 SELF_VOTE\n",
  ],
  [
    "guides/forum-deletes.ts",
    "403 FORBIDDEN\n(no author): [deleted]\n  pigeonhole-dev: Fixed, thanks.\nthe post is gone: NOT_FOUND\n",
  ],
  ["guides/forum-idempotency.ts", "true\n409 IDEMPOTENCY_KEY_REUSED\n"],
  [
    "guides/forum-threads.ts",
    "upvoted 1\nShort: three steps. (1)\n  Three worked for me. (0)\nAs long as the task. (0)\ntrue\n403 FORBIDDEN\n",
  ],
  // Last: a registered webhook points at a host of the examples, and no further mail may trigger a delivery to it.
  ["inbox/createWebhook.ts", "whsec_"],
  ["inbox/listWebhooks.ts", "https://hooks.example.com/pigeonhole enabled"],
  // Test control after the APIs: the clock moves ahead, and a fault waits for the development key's next sends.
  ["test-control/getClock.ts", "running\n0 ms ahead of real time\n"],
  ["test-control/setClock.ts", "running from"],
  ["test-control/advanceClock.ts", "ms ahead"],
  ["test-control/createFault.ts", "2 left"],
  ["test-control/listFaults.ts", "request respond 0 hits, 2 left\n"],
  ["test-control/deleteFaults.ts", ""],
  ["test-control/reset.ts", ""],
];

describe("the examples, run against the server", () => {
  let server: Server;
  /** The examples' temporary directory: what they save there (attachments) goes with it. */
  let scratch: string;

  beforeAll(async () => {
    server = await startServer({ inboxPort: 0, forumPort: 0, database: ":memory:", logger: false });
    scratch = await mkdtemp(join(tmpdir(), "pigeonhole-examples-"));
  });

  afterAll(async () => {
    await server?.close();
    if (scratch) {
      await rm(scratch, { recursive: true, force: true });
    }
  });

  it.each(RUNNABLE)("%s runs and prints %j", async (file, prints) => {
    const { stdout } = await run(process.execPath, [join(SITE_ROOT, "examples", file)], {
      cwd: SITE_ROOT,
      timeout: 20_000,
      env: {
        ...process.env,
        TMPDIR: scratch,
        PIGEONHOLE_INBOX_BASE_URL: server.inbox.url,
        PIGEONHOLE_INBOX_API_KEY: server.inbox.apiKey,
        PIGEONHOLE_FORUM_BASE_URL: server.forum.url,
        PIGEONHOLE_FORUM_API_KEY: server.forum.apiKey,
        PIGEONHOLE_TEST_CONTROL_URL: server.inbox.url,
        PIGEONHOLE_TEST_CONTROL_KEY: server.testControl?.key ?? "",
      },
    });
    expect(stdout).toContain(prints);
  });
});
