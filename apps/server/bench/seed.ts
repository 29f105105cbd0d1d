import type { Inbox, Message, SendMessageResponse } from "@pigeonhole/inbox-types";
import { isoTimestamp, systemClock } from "../src/clock.ts";
import { hotRank } from "../src/forum/hot-rank.ts";
import { newUuid } from "../src/ids.ts";
import { ApiKeys } from "../src/keys/api-keys.ts";
import { DEFAULT_COMMUNITY } from "../src/storage/forum/default-community.ts";
import { openStorage } from "../src/storage/open-storage.ts";
import { benchBytes } from "./bench-bytes.ts";
import type { SeededAttachment } from "./scenarios.ts";

/** How many requests or writes the seeding keeps in flight at once. */
const PARALLEL = 8;

/** Runs `call` for 0 to `count - 1`, at most `parallel` at a time. */
export async function inParallel(
  count: number,
  parallel: number,
  call: (index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(parallel, count) }, async () => {
      while (next < count) {
        await call(next++);
      }
    }),
  );
}

/**
 * Writes `count` posts of the agent with `forumKey` (which a server has registered) straight into the database while no
 * server runs on it, spread over ten days and with votes from many agents, so that `hot` has real scores to rank (over
 * HTTP each key is a single agent, and every post would be new). Answers the posts' ids, oldest first.
 */
export async function seedPosts(location: string, forumKey: string, count: number): Promise<string[]> {
  const storage = await openStorage(location);
  try {
    const agent = await new ApiKeys(storage.keys, systemClock).authenticateForum(forumKey);
    if (!agent) {
      throw new Error("The benchmark's forum key is not registered: a server must have started on the database.");
    }
    const now = Date.now();
    const ids: string[] = new Array(count);
    await inParallel(count, PARALLEL, async (i) => {
      const createdAt = now - Math.floor(((count - i) / count) * 10 * 86_400_000);
      const post = await storage.forum.createPost({
        postId: newUuid(),
        communityId: DEFAULT_COMMUNITY.id,
        authorId: agent.agentId,
        title: `Post ${i}`,
        content: `Seeded post number ${i}.`,
        url: null,
        hotRank: hotRank(0, 0, createdAt),
        createdAt: isoTimestamp(createdAt),
      });
      ids[i] = post.post_id;
      // One post in ten has votes: from none up to 36, one in four of them down.
      const votes = i % 10 === 0 ? i % 37 : 0;
      for (let v = 0; v < votes; v++) {
        await storage.forum.vote(
          post.post_id,
          newUuid(),
          v % 4 === 0 ? "down" : "up",
          post.created_at,
          (up, down, at) => hotRank(up, down, Date.parse(at)),
        );
      }
    });
    return ids;
  } finally {
    await storage.close();
  }
}

/** Creates the inboxes `bench-0` to `bench-<count - 1>` through the Inbox API; answers their addresses. */
export async function seedInboxes(inboxUrl: string, inboxKey: string, count: number): Promise<string[]> {
  const addresses: string[] = new Array(count);
  await inParallel(count, PARALLEL, async (i) => {
    addresses[i] = await createInbox(inboxUrl, inboxKey, `bench-${i}`);
  });
  return addresses;
}

/** Creates the inbox `username` through the Inbox API; answers its address. */
export async function createInbox(inboxUrl: string, inboxKey: string, username: string): Promise<string> {
  const response = await fetch(`${inboxUrl}/v0/inboxes`, {
    method: "POST",
    headers: { Authorization: `Bearer ${inboxKey}`, "Content-Type": "application/json" },
    body: JSON.stringify({ username }),
    signal: AbortSignal.timeout(10_000),
  });
  if (!response.ok) {
    throw new Error(`Could not create the inbox ${username}: ${response.status} ${await response.text()}`);
  }
  const inbox = (await response.json()) as Inbox;
  return inbox.inbox_id;
}

/** The keys of the voting agents the benchmark seeds: `bench-voter-<i>`. */
export const voterKey = (index: number): string => `bench-voter-${index}`;

/** Registers `count` agents, with the keys {@link voterKey} names, straight into the database while no server runs. */
export async function seedVoters(location: string, count: number): Promise<void> {
  const storage = await openStorage(location);
  try {
    const apiKeys = new ApiKeys(storage.keys, systemClock);
    await inParallel(count, PARALLEL, async (i) => {
      const registered = await apiKeys.registerAgent({ key: voterKey(i), name: `bench-voter-${i}` });
      if ("nameTaken" in registered) {
        throw new Error(`The voter name bench-voter-${i} is taken.`);
      }
    });
  } finally {
    await storage.close();
  }
}

async function inboxRequest<T>(inboxUrl: string, inboxKey: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${inboxUrl}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { Authorization: `Bearer ${inboxKey}`, "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  if (!response.ok) {
    throw new Error(`${path}: ${response.status} ${await response.text()}`);
  }
  return (await response.json()) as T;
}

/**
 * Sends a message with one attachment of each size (the {@link benchBytes} of that size) from `inbox`, checks that
 * each downloads as exactly those bytes, and answers where each downloads from.
 */
export async function seedAttachments(
  inboxUrl: string,
  inboxKey: string,
  inbox: string,
  sizes: readonly number[],
): Promise<SeededAttachment[]> {
  const messages = `/v0/inboxes/${encodeURIComponent(inbox)}/messages`;
  const seeded: SeededAttachment[] = [];
  for (const size of sizes) {
    const content = benchBytes(size);
    const sent = await inboxRequest<SendMessageResponse>(inboxUrl, inboxKey, messages, {
      to: "someone@example.com",
      subject: `Benchmark attachment of ${size} bytes`,
      text: "A file for the download benchmark.",
      attachments: [{ filename: `bench-${size}.bin`, content: Buffer.from(content).toString("base64") }],
    });
    const messagePath = `${messages}/${encodeURIComponent(sent.message_id)}`;
    const message = await inboxRequest<Message>(inboxUrl, inboxKey, messagePath);
    const [attachment] = message.attachments;
    if (attachment === undefined) {
      throw new Error(`The message ${sent.message_id} has no attachment.`);
    }
    const path = `${messagePath}/attachments/${encodeURIComponent(attachment.attachment_id)}`;
    const download = await fetch(`${inboxUrl}${path}`, {
      headers: { Authorization: `Bearer ${inboxKey}` },
      signal: AbortSignal.timeout(30_000),
    });
    const downloaded = Buffer.from(await download.arrayBuffer());
    if (!download.ok || !downloaded.equals(content)) {
      throw new Error(`${path} answered ${download.status} with ${downloaded.length} bytes, not the ${size} sent.`);
    }
    seeded.push({ size, path });
  }
  return seeded;
}
