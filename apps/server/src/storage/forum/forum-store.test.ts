import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isoTimestamp } from "../../clock.ts";
import { DEFAULT_COMMUNITY } from "../../forum/default-community.ts";
import { hotRank } from "../../forum/hot-rank.ts";
import { toCommunityRow } from "../../forum/records.ts";
import { newUuid } from "../../ids.ts";
import { openTestStorage } from "../../testing/test-database.ts";
import type { Storage } from "../open-storage.ts";
import type { ForumStore } from "./forum-store.ts";

// Over HTTP each API key is one agent, so a post's score stays within -1..1 and hot order equals age order. The
// storage keeps one vote per agent and post, so several agents of one tenant show the score part of the formula.
let storage: Storage;
let repository: ForumStore;
const tenantId = newUuid();
const HOUR = 3_600_000;
const start = Date.parse("2026-11-22T00:00:00.000Z");

beforeAll(async () => {
  storage = await openTestStorage();
  repository = storage.forum;
  await storage.keys.registerForumKey("hash", { agentId: tenantId, agentName: "ranker" }, isoTimestamp(start));
  await repository.ensureCommunity(toCommunityRow(DEFAULT_COMMUNITY), isoTimestamp(start));
});
afterAll(() => storage.close());

async function post(title: string, createdAtMs: number) {
  return repository.createPost({
    postId: newUuid(),
    tenantId,
    communityId: DEFAULT_COMMUNITY.id,
    authorId: tenantId,
    title,
    content: title,
    url: null,
    hotRank: hotRank(0, 0, createdAtMs),
    createdAt: isoTimestamp(createdAtMs),
  });
}

const rankOf = (upvotes: number, downvotes: number, createdAt: string) =>
  hotRank(upvotes, downvotes, Date.parse(createdAt));

async function upvote(postId: string, agents: number) {
  for (let i = 0; i < agents; i++) {
    await repository.vote(tenantId, postId, newUuid(), "up", isoTimestamp(start), rankOf);
  }
}

describe("hot rank column", () => {
  it("is updated on every vote: ten up votes are worth 12.5 hours of age, and no more", async () => {
    const older = await post("older", start);
    const younger = await post("younger by 12 h", start + 12 * HOUR);
    const titles = async () => (await repository.listPosts(tenantId, "hot", 10, 0)).map((p) => p.title);
    expect(await titles()).toEqual(["younger by 12 h", "older"]);
    await upvote(older.post_id, 10);
    expect(await titles()).toEqual(["older", "younger by 12 h"]);

    await post("younger by 13 h", start + 13 * HOUR);
    expect((await titles())[0]).toBe("younger by 13 h");
    expect(await titles()).toEqual(["younger by 13 h", "older", "younger by 12 h"]);
    await upvote(younger.post_id, 1);
    expect((await repository.findPost(tenantId, younger.post_id))?.upvotes).toBe(1);
  });

  it("ranks a negative score below a neutral one of the same age", async () => {
    const at = start + 100 * HOUR;
    const neutral = await post("neutral", at);
    const disliked = await post("disliked", at);
    for (let i = 0; i < 10; i++) {
      await repository.vote(tenantId, disliked.post_id, newUuid(), "down", isoTimestamp(at), rankOf);
    }
    const ranked = (await repository.listPosts(tenantId, "hot", 2, 0)).map((p) => p.post_id);
    expect(ranked).toEqual([neutral.post_id, disliked.post_id]);
  });
});
