import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { MessageSentEvent } from "@pigeonhole/inbox-types";
import { afterAll, describe, expect, it } from "vitest";
import type { CliProcess } from "../test/support/cli-process.ts";
import { ON_FREE_PORTS, runCli, TEST_KEYS } from "../test/support/cli-process.ts";
import { expectData, forumClient, inboxClient } from "../test/support/test-server.ts";
import { startWebhookReceiver } from "../test/support/webhook-receiver.ts";

const dir = mkdtempSync(join(tmpdir(), "pigeonhole-crash-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A port nothing listens on (yet): the webhook receiver is down during the load. */
async function reservePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const cliArgs = (database: string) => [
  "--db",
  database,
  ...ON_FREE_PORTS,
  "--allow-private-webhooks",
  "--quiet",
  "--webhook-retry-delays",
  "3600000",
  "--inbox-requests-per-minute",
  "1000000",
  "--forum-reads-per-minute",
  "1000000",
  "--forum-writes-per-minute",
  "1000000",
];

describe("crash safety", () => {
  it("keeps every acknowledged write and delivers every pending webhook after kill -9 and a restart", async () => {
    const database = join(dir, "server.db");
    const receiverPort = await reservePort();
    const first: CliProcess = await runCli(cliArgs(database));
    const inbox = inboxClient(first.inboxUrl, TEST_KEYS.inbox);
    const forum = forumClient(first.forumUrl, TEST_KEYS.forum);
    const sender = expectData(await inbox.POST("/v0/inboxes", { body: { username: "crash-sender" } })).inbox_id;
    expectData(
      await inbox.POST("/v0/webhooks", {
        body: { url: `http://127.0.0.1:${receiverPort}/hook`, event_types: ["message.sent"] },
      }),
    );

    const ackedMessages: string[] = [];
    const ackedPosts: string[] = [];
    const ackedComments = new Map<string, string[]>();
    const votes = new Map<string, { last: "up" | "down" | null; unsure: boolean }>();
    let stop = false;
    const deadline = Date.now() + 10_000;
    const running = () => !stop && Date.now() < deadline;
    const swallow = () => undefined;

    const senders = Array.from({ length: 4 }, async (_, worker) => {
      for (let i = 0; running() && i < 500; i++) {
        const result = await inbox
          .POST("/v0/inboxes/{inbox_id}/messages", {
            params: { path: { inbox_id: sender } },
            body: { to: "someone@example.com", subject: `load ${worker}-${i}` },
          })
          .catch(swallow);
        if (result?.data) {
          ackedMessages.push(result.data.message_id);
        }
      }
    });
    const writers = Array.from({ length: 3 }, async () => {
      for (let i = 0; running() && i < 300; i++) {
        const created = await forum
          .POST("/api/v1/posts", { body: { title: `post ${i}`, content: "load" } })
          .catch(swallow);
        if (!created?.data) {
          continue;
        }
        const postId = created.data.post.id;
        ackedPosts.push(postId);
        const comment = await forum
          .POST("/api/v1/posts/{post_id}/comments", { params: { path: { post_id: postId } }, body: { content: "c" } })
          .catch(swallow);
        if (comment?.data) {
          ackedComments.set(postId, [comment.data.comment.id]);
        }
        const state = { last: null as "up" | "down" | null, unsure: true };
        votes.set(postId, state);
        const vote = await forum
          .POST("/api/v1/posts/{post_id}/vote", {
            params: { path: { post_id: postId } },
            body: { direction: i % 2 === 0 ? "up" : "down" },
          })
          .catch(swallow);
        if (vote?.data) {
          votes.set(postId, { last: vote.data.vote, unsure: false });
        }
      }
    });

    // Kill the process hard while the load is running.
    while (ackedMessages.length < 40 || ackedPosts.length < 20) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      if (Date.now() > deadline) {
        throw new Error("The load did not get going.");
      }
    }
    first.child.kill("SIGKILL");
    const { signal } = await first.exited;
    expect(signal).toBe("SIGKILL");
    stop = true;
    await Promise.all([...senders, ...writers]);
    expect(ackedMessages.length).toBeGreaterThan(0);

    const receiver = await startWebhookReceiver(() => 200, receiverPort);
    const second = await runCli(cliArgs(database));
    try {
      const inboxAgain = inboxClient(second.inboxUrl, TEST_KEYS.inbox);
      const forumAgain = forumClient(second.forumUrl, TEST_KEYS.forum);

      for (const messageId of ackedMessages) {
        expectData(
          await inboxAgain.GET("/v0/inboxes/{inbox_id}/messages/{message_id}", {
            params: { path: { inbox_id: sender, message_id: messageId } },
          }),
        );
      }
      for (const postId of ackedPosts) {
        const { post } = expectData(
          await forumAgain.GET("/api/v1/posts/{post_id}", { params: { path: { post_id: postId } } }),
        );
        const comments = expectData(
          await forumAgain.GET("/api/v1/posts/{post_id}/comments", { params: { path: { post_id: postId } } }),
        );
        expect(post.comment_count).toBe(comments.count);
        for (const commentId of ackedComments.get(postId) ?? []) {
          expect(comments.comments.map((c) => c.id)).toContain(commentId);
        }
        const vote = votes.get(postId);
        expect(post.upvotes + post.downvotes).toBeLessThanOrEqual(1);
        if (vote && !vote.unsure) {
          expect({ up: post.upvotes, down: post.downvotes }).toEqual({
            up: vote.last === "up" ? 1 : 0,
            down: vote.last === "down" ? 1 : 0,
          });
        }
      }

      // Every acknowledged send had a pending message.sent delivery; all arrive once the receiver is up.
      const delivered = new Set<string>();
      const waitUntil = Date.now() + 15_000;
      while (ackedMessages.some((id) => !delivered.has(id)) && Date.now() < waitUntil) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        for (const delivery of receiver.deliveries) {
          delivered.add((JSON.parse(delivery.body) as MessageSentEvent).send.message_id);
        }
      }
      expect(ackedMessages.filter((id) => !delivered.has(id))).toEqual([]);
    } finally {
      second.child.kill("SIGTERM");
      await second.exited;
      await receiver.close();
    }
  }, 90_000);
});
