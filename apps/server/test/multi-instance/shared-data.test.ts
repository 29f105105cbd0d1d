import { execFile } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI_ENTRY } from "../support/cli-process.ts";
import type { Instances } from "./instances.ts";
import { bounded, forumHeaders, inboxHeaders, roundRobin, startInstances } from "./instances.ts";

// Three server processes on one PostgreSQL database, load spread over them: they serve one set of data, and every
// guarantee of a single server holds across them.
let instances: Instances;
beforeAll(async () => {
  instances = await startInstances(3);
}, 60_000);
afterAll(() => instances?.stop());

const inboxUrl = (i: number) => roundRobin(instances.all, i).inboxUrl;
const forumUrl = (i: number) => roundRobin(instances.all, i).forumUrl;

async function json<T>(response: Response): Promise<T> {
  const text = await response.text();
  if (!response.ok) {
    throw new Error(`${response.status} ${text}`);
  }
  return JSON.parse(text) as T;
}

describe("several instances on one database", () => {
  it("serve the same data: what one instance writes, the others read, and page tokens travel", async () => {
    const inboxes: string[] = [];
    for (let i = 0; i < 6; i++) {
      const created = await json<{ inbox_id: string }>(
        await fetch(`${inboxUrl(i)}/v0/inboxes`, { method: "POST", headers: inboxHeaders(), body: "{}" }),
      );
      inboxes.push(created.inbox_id);
    }
    // Page through the list one inbox at a time, each page from another instance.
    const seen: string[] = [];
    let token: string | null = null;
    for (let i = 0; i < 10 && seen.length < 6; i++) {
      const query: string = token ? `limit=1&page_token=${encodeURIComponent(token)}` : "limit=1";
      const page: { inboxes: { inbox_id: string }[]; next_page_token: string | null } = await json(
        await fetch(`${inboxUrl(i)}/v0/inboxes?${query}`, { headers: inboxHeaders() }),
      );
      seen.push(...page.inboxes.map((inbox) => inbox.inbox_id));
      token = page.next_page_token;
    }
    expect(seen).toEqual(inboxes.toReversed());
  });

  it("keep counts exact under concurrent comments and votes of many agents through different instances", async () => {
    const { post } = await json<{ post: { id: string } }>(
      await fetch(`${forumUrl(0)}/api/v1/posts`, {
        method: "POST",
        headers: forumHeaders(),
        body: JSON.stringify({ title: "Counted", content: "Through three instances." }),
      }),
    );
    const agents: string[] = [];
    await bounded(30, 10, async (i) => {
      const registered = await json<{ api_key: string }>(
        await fetch(`${forumUrl(i)}/api/v1/agents/register`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ name: `voter-${i}` }),
        }),
      );
      agents.push(registered.api_key);
    });
    // Each agent's key is used on another instance than the one it registered on.
    const send = async (i: number, key: string, path: string, body: object) => {
      const response = await fetch(`${forumUrl(i + 1)}${path}`, {
        method: "POST",
        headers: forumHeaders(key),
        body: JSON.stringify(body),
      });
      expect(response.status, await response.clone().text()).toBeLessThan(300);
      await response.body?.cancel();
    };
    // Every agent votes up and comments, all at once; then a third of them vote down at once, which flips their vote.
    await bounded(agents.length * 2, 12, (i) => {
      const key = agents[i % agents.length] ?? "";
      return i < agents.length
        ? send(i, key, `/api/v1/posts/${post.id}/vote`, { direction: "up" })
        : send(i, key, `/api/v1/posts/${post.id}/comments`, { content: `Comment ${i}` });
    });
    const flippers = 10;
    await bounded(flippers, 10, (i) =>
      send(i, agents[i] ?? "", `/api/v1/posts/${post.id}/vote`, { direction: "down" }),
    );
    const { post: counted } = await json<{ post: { comment_count: number; upvotes: number; downvotes: number } }>(
      await fetch(`${forumUrl(1)}/api/v1/posts/${post.id}`, { headers: forumHeaders() }),
    );
    expect(counted.comment_count).toBe(agents.length);
    expect(counted.upvotes).toBe(agents.length - flippers);
    expect(counted.downvotes).toBe(flippers);
  });

  it("accept at once on every instance a key the CLI creates in the database", async () => {
    const created = await new Promise<string>((resolve, reject) => {
      execFile(
        process.execPath,
        [CLI_ENTRY, "keys", "create", "--service", "inbox", "--database", instances.databaseUrl],
        { env: { ...process.env, NODE_NO_WARNINGS: "1" } },
        (error, stdout) => (error ? reject(error) : resolve(stdout.trim())),
      );
    });
    expect(created).toMatch(/^ph_inbox_/);
    for (const instance of instances.all) {
      const response = await fetch(`${instance.inboxUrl}/v0/inboxes`, {
        headers: { authorization: `Bearer ${created}` },
      });
      expect(response.status).toBe(200);
      expect(((await response.json()) as { inboxes: unknown[] }).inboxes).toEqual([]);
    }
  });

  it("answer a repeated Idempotency-Key or client_id on another instance with the original", async () => {
    const { inbox_id } = await json<{ inbox_id: string }>(
      await fetch(`${inboxUrl(0)}/v0/inboxes`, { method: "POST", headers: inboxHeaders(), body: "{}" }),
    );
    const send = JSON.stringify({ to: ["someone@example.com"], subject: "Once", text: "Only once." });
    const sends: { message_id: string; thread_id: string }[] = [];
    const created: string[] = [];
    await bounded(24, 12, async (i) => {
      if (i % 2 === 0) {
        sends.push(
          await json(
            await fetch(`${inboxUrl(i)}/v0/inboxes/${encodeURIComponent(inbox_id)}/messages`, {
              method: "POST",
              headers: inboxHeaders({ "idempotency-key": "multi-instance-once" }),
              body: send,
            }),
          ),
        );
      } else {
        const inbox = await json<{ inbox_id: string }>(
          await fetch(`${inboxUrl(i)}/v0/inboxes`, {
            method: "POST",
            headers: inboxHeaders(),
            body: JSON.stringify({ client_id: "multi-instance-inbox" }),
          }),
        );
        created.push(inbox.inbox_id);
      }
    });
    expect(new Set(sends.map((s) => s.message_id)).size).toBe(1);
    expect(new Set(created).size).toBe(1);
    const list = await json<{ messages: unknown[] }>(
      await fetch(`${inboxUrl(2)}/v0/inboxes/${encodeURIComponent(inbox_id)}/messages`, { headers: inboxHeaders() }),
    );
    expect(list.messages).toHaveLength(1);
  });
});
