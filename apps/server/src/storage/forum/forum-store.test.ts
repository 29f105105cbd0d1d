import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestStorage } from "../../../test/support/test-database.ts";
import { isoTimestamp } from "../../clock.ts";
import { hotRank } from "../../forum/hot-rank.ts";
import { newUuid } from "../../ids.ts";
import type { Storage } from "../open-storage.ts";
import { DEFAULT_COMMUNITY } from "./default-community.ts";
import type { ForumStore } from "./forum-store.ts";

// The hot rank column follows the anchor's formula as votes of many agents arrive.
let storage: Storage;
let forum: ForumStore;
const authorId = newUuid();
const HOUR = 3_600_000;
const start = Date.parse("2026-11-22T00:00:00.000Z");
let voters = 0;

beforeAll(async () => {
  storage = await openTestStorage();
  forum = storage.forum;
  await storage.keys.registerAgent(
    "author",
    { agentId: authorId, name: "ranker", description: null },
    isoTimestamp(start),
  );
});
afterAll(() => storage.close());

async function post(title: string, createdAtMs: number) {
  return forum.createPost({
    postId: newUuid(),
    communityId: DEFAULT_COMMUNITY.id,
    authorId,
    title,
    content: title,
    url: null,
    hotRank: hotRank(0, 0, createdAtMs),
    createdAt: isoTimestamp(createdAtMs),
  });
}

const rankOf = (upvotes: number, downvotes: number, createdAt: string) =>
  hotRank(upvotes, downvotes, Date.parse(createdAt));

async function vote(postId: string, agents: number, direction: "up" | "down", at = start) {
  for (let i = 0; i < agents; i++) {
    voters += 1;
    await forum.vote(postId, `voter-${voters}`, direction, isoTimestamp(at), rankOf);
  }
}

const hot = async (limit = 10) =>
  (await forum.listPosts({ sort: "hot", communityName: null, limit, offset: 0 }, authorId)).map((p) => p.title);

describe("hot rank column", () => {
  // With the author's own vote, nine up votes make s = 10: a tenfold score, worth 12.5 hours of age.
  it("is updated on every vote: nine up votes (s = 10) are worth 12.5 hours of age, and no more", async () => {
    const older = await post("older", start);
    const younger = await post("younger by 12 h", start + 12 * HOUR);
    expect(await hot()).toEqual(["younger by 12 h", "older"]);
    await vote(older.post_id, 9, "up");
    expect(await hot()).toEqual(["older", "younger by 12 h"]);

    await post("younger by 13 h", start + 13 * HOUR);
    expect(await hot()).toEqual(["younger by 13 h", "older", "younger by 12 h"]);
    await vote(younger.post_id, 1, "up");
    expect((await forum.findPost(younger.post_id, authorId))?.upvotes).toBe(1);
  });

  it("ranks a negative score below a neutral one of the same age", async () => {
    const at = start + 100 * HOUR;
    const neutral = await post("neutral", at);
    const disliked = await post("disliked", at);
    await vote(disliked.post_id, 10, "down", at);
    expect((await hot(2)).slice(0, 2)).toEqual(["neutral", "disliked"]);
    expect(neutral.my_vote).toBeNull();
  });

  it("refuses the author's own vote and shows each viewer their vote", async () => {
    const own = await post("own", start);
    expect(await forum.vote(own.post_id, authorId, "up", isoTimestamp(start), rankOf)).toBe("self");
    await forum.vote(own.post_id, "viewer", "down", isoTimestamp(start), rankOf);
    expect((await forum.findPost(own.post_id, "viewer"))?.my_vote).toBe("down");
    expect((await forum.findPost(own.post_id, authorId))?.my_vote).toBeNull();
  });
});
