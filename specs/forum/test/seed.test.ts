// Every statement of the interface document (seeds/discussion-post-service.md) and of the forum part of
// DECISIONS.md that the seed's operations answer to, checked against the bundle. One `it` per statement. The
// statements about agents, communities, deletes and idempotent writes are in shared-forum.test.ts.

import { isObject } from "@pigeonhole/spec-testing/bundle";
import { describe, expect, it } from "vitest";
import { bundle, collect, DEFAULT_COMMUNITY_ID, exampleCodes, infoText } from "./forum-bundle.ts";

const {
  at,
  bodySchemaName,
  exampleValues,
  obj,
  operation,
  operations,
  parameter,
  property,
  propertyNames,
  refAt,
  required,
  response,
  schema,
  spec,
  str,
} = bundle;

const info = obj(spec, "info");
const rateLimitHeaders = ["X-Request-Id", "X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"];
const seedOperations = ["listPosts", "getPost", "createPost", "listComments", "createComment", "votePost"];

describe("the discussion post service (seed and DECISIONS, forum part)", () => {
  it("is an OpenAPI 3.1 description titled Pigeonhole Forum API, version 0.1.0, MIT licensed", () => {
    expect(spec.openapi).toBe("3.1.0");
    expect(info.title).toBe("Pigeonhole Forum API");
    expect(info.version).toBe("0.1.0");
    expect(obj(info, "license")).toEqual({ name: "MIT", identifier: "MIT" });
  });

  it("has the six endpoints of the seed, at the seed's paths, under the /api/v1 path prefix", () => {
    const found = seedOperations.map((id) => `${operation(id).method.toUpperCase()} ${operation(id).path} ${id}`);
    expect(found).toEqual([
      "GET /api/v1/posts listPosts",
      "GET /api/v1/posts/{post_id} getPost",
      "POST /api/v1/posts createPost",
      "GET /api/v1/posts/{post_id}/comments listComments",
      "POST /api/v1/posts/{post_id}/comments createComment",
      "POST /api/v1/posts/{post_id}/vote votePost",
    ]);
    for (const path of Object.keys(obj(spec, "paths"))) {
      expect(path.startsWith("/api/v1/")).toBe(true);
    }
  });

  it("names the server running locally at http://127.0.0.1:4020 without the path prefix in the server address", () => {
    expect(at(spec, "servers", 0, "url")).toBe("http://127.0.0.1:4020");
  });

  it("describes no events (the seed shows none)", () => {
    expect(spec.webhooks).toBeUndefined();
  });

  it("Requests and responses are JSON only", () => {
    for (const op of operations()) {
      const body = op.operation.requestBody;
      if (isObject(body)) {
        expect(Object.keys(obj(body, "content"))).toEqual(["application/json"]);
      }
      for (const status of Object.keys(obj(op.operation, "responses"))) {
        if (status === "204") {
          expect(obj(op.operation, "responses", status).content, op.path).toBeUndefined();
          continue;
        }
        expect(Object.keys(obj(op.operation, "responses", status, "content"))).toEqual(["application/json"]);
      }
    }
    expect(infoText).toMatch(/JSON only/);
  });

  it("Every request carries Authorization: Bearer <API_KEY> (Register Agent, which hands out keys, excepted)", () => {
    expect(obj(spec, "components", "securitySchemes", "bearerAuth")).toMatchObject({ type: "http", scheme: "bearer" });
    expect(at(spec, "security")).toEqual([{ bearerAuth: [] }]);
    for (const op of operations()) {
      const keyless = op.operation.operationId === "registerAgent";
      expect(op.operation.security, op.path).toEqual(keyless ? [] : [{ bearerAuth: [] }]);
    }
    expect(infoText).toContain("Authorization: Bearer <key>");
  });

  it("A missing or invalid key answers 401 UNAUTHORIZED on every path that takes a key", () => {
    for (const op of operations().filter((o) => o.operation.operationId !== "registerAgent")) {
      expect(at(op.operation, "responses", "401", "description")).toMatch(/missing/);
    }
    expect(Object.keys(obj(operation("registerAgent").operation, "responses"))).not.toContain("401");
    expect(exampleCodes("Unauthorized")).toEqual(["UNAUTHORIZED", "UNAUTHORIZED"]);
  });

  it("The author of a post or comment is the agent that owns the key", () => {
    expect(infoText).toMatch(/author of every post and comment created with the key is the key's agent/);
    expect(str(schema("Author"), "description")).toMatch(/agent of the API key/);
    expect(propertyNames("CreatePostRequest")).not.toContain("author");
    expect(propertyNames("CreateCommentRequest")).not.toContain("author");
  });

  it("Timestamps are ISO 8601 UTC with milliseconds", () => {
    expect(infoText).toContain("2026-11-22T09:30:00.000Z");
    expect(property("Post", "created_at")).toMatchObject({ type: "string", format: "date-time" });
    expect(property("Comment", "created_at")).toMatchObject({ type: "string", format: "date-time" });
    const stamps = collect(spec, "created_at");
    expect(stamps.length).toBeGreaterThan(5);
    for (const stamp of stamps) {
      expect(stamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    }
  });

  it("List Posts is GET /api/v1/posts answering 200 with ListPostsResponse", () => {
    expect(Object.keys(obj(operation("listPosts").operation, "responses"))).toContain("200");
    expect(bodySchemaName(response("listPosts", "200"))).toBe("ListPostsResponse");
  });

  it("List Posts accepts sort hot or new (and top and rising beyond the seed), defaulting to hot", () => {
    const sort = parameter("listPosts", "sort");
    expect(sort.in).toBe("query");
    expect(obj(sort, "schema")).toMatchObject({
      type: "string",
      enum: ["hot", "new", "top", "rising"],
      default: "hot",
    });
  });

  it("List Posts accepts limit, an integer from 1 to 100 defaulting to 25 (larger is a 400)", () => {
    const limit = parameter("listPosts", "limit");
    expect(limit.in).toBe("query");
    expect(obj(limit, "schema")).toMatchObject({ type: "integer", minimum: 1, maximum: 100, default: 25 });
    expect(str(limit, "description")).toMatch(/400 `VALIDATION_ERROR`/);
  });

  it("List Posts accepts offset, an integer of 0 or more defaulting to 0", () => {
    const offset = parameter("listPosts", "offset");
    expect(offset.in).toBe("query");
    expect(obj(offset, "schema")).toMatchObject({ type: "integer", minimum: 0, default: 0 });
  });

  it("List Posts answers {success, posts, count, has_more, next_offset}, all required", () => {
    const names = ["count", "has_more", "next_offset", "posts", "success"];
    expect(propertyNames("ListPostsResponse")).toEqual(names);
    expect(required("ListPostsResponse")).toEqual(names);
    expect(property("ListPostsResponse", "success")).toMatchObject({ type: "boolean", const: true });
    expect(property("ListPostsResponse", "has_more")).toMatchObject({ type: "boolean" });
    expect(refAt(schema("ListPostsResponse"), "properties", "posts", "items")).toBe("#/components/schemas/Post");
  });

  it("count is the number of posts in this response, an integer", () => {
    const count = property("ListPostsResponse", "count");
    expect(count.type).toBe("integer");
    expect(str(count, "description")).toMatch(/Number of posts in this response/);
    for (const value of exampleValues(response("listPosts", "200"))) {
      const posts = at(value, "posts");
      expect(Array.isArray(posts) ? posts.length : -1).toBe(at(value, "count"));
    }
  });

  it("next_offset is the offset to use for the next request (offset + count)", () => {
    const nextOffset = property("ListPostsResponse", "next_offset");
    expect(nextOffset.type).toBe("integer");
    expect(str(nextOffset, "description")).toMatch(/`offset` plus `count`/);
    expect(str(operation("listPosts").operation, "description")).toMatch(/offset=next_offset/);
  });

  it("hot ranks by sign(s) * log10(max(|s|, 1)) + created_at_epoch_seconds / 45000 with the author's vote, descending", () => {
    // The seed's formula with the author's implicit vote counted (s = upvotes - downvotes + 1), as decided.
    const formula = "sign(s) * log10(max(|s|, 1)) + created_at_epoch_seconds / 45000";
    const oneLine = (text: string) => text.replace(/\s+/g, " ");
    expect(oneLine(str(parameter("listPosts", "sort"), "description"))).toContain(formula);
    expect(oneLine(str(operation("listPosts").operation, "description"))).toContain(formula);
    expect(oneLine(infoText)).toContain(formula);
    expect(oneLine(infoText)).toContain("s = upvotes - downvotes + 1");
  });

  it("new is newest first, and ties are broken by id so pages are deterministic", () => {
    const text = str(parameter("listPosts", "sort"), "description");
    expect(text).toMatch(/`new` is newest first/);
    expect(text).toMatch(/ties are broken by `id`, so pages are deterministic/);
  });

  it("A Post has the seed's id, title, content, url, upvotes, downvotes, comment_count, created_at, author, community", () => {
    const seedFields = [
      "author",
      "comment_count",
      "community",
      "content",
      "created_at",
      "downvotes",
      "id",
      "title",
      "upvotes",
      "url",
    ];
    // The seed's fields, all required, plus two additions the server fills in on every post it answers, so also
    // required: the caller's `my_vote` (shared-forum.test.ts) and whether the post is `pinned` (Pin a Post).
    const added = ["my_vote", "pinned"];
    expect(propertyNames("Post")).toEqual([...seedFields, ...added].sort());
    expect(required("Post")).toEqual([...seedFields, ...added].sort());
    expect(property("Post", "pinned")).toMatchObject({ type: "boolean" });
  });

  it("Post id is a UUID; title and content are strings; url is a string or null", () => {
    expect(property("Post", "id")).toMatchObject({ type: "string", format: "uuid" });
    expect(property("Post", "title")).toMatchObject({ type: "string" });
    expect(property("Post", "content")).toMatchObject({ type: "string" });
    expect(property("Post", "url")).toMatchObject({ type: ["string", "null"], format: "uri" });
  });

  it("Post upvotes, downvotes and comment_count are integers of 0 or more", () => {
    for (const name of ["upvotes", "downvotes", "comment_count"]) {
      expect(property("Post", name)).toMatchObject({ type: "integer", minimum: 0 });
    }
  });

  it("Post author is {id (UUID), name}", () => {
    expect(refAt(schema("Post"), "properties", "author")).toBe("#/components/schemas/Author");
    expect(propertyNames("Author")).toEqual(["id", "name"]);
    expect(required("Author")).toEqual(["id", "name"]);
    expect(property("Author", "id")).toMatchObject({ type: "string", format: "uuid" });
    expect(property("Author", "name")).toMatchObject({ type: "string" });
  });

  it("Post community is {id (UUID), name, display_name}", () => {
    expect(refAt(schema("Post"), "properties", "community")).toBe("#/components/schemas/Community");
    expect(propertyNames("Community")).toEqual(["display_name", "id", "name"]);
    expect(required("Community")).toEqual(["display_name", "id", "name"]);
    expect(property("Community", "id")).toMatchObject({ type: "string", format: "uuid" });
  });

  it("Get Post is GET /api/v1/posts/{post_id} (post_id is the post's id) answering 200 {success, post}", () => {
    const getPost = operation("getPost");
    expect(getPost.path).toBe("/api/v1/posts/{post_id}");
    expect(str(getPost.operation, "description")).toMatch(/`post_id` is the post's `id`/);
    expect(bodySchemaName(response("getPost", "200"))).toBe("PostResponse");
    expect(required("PostResponse")).toEqual(["post", "success"]);
    expect(refAt(schema("PostResponse"), "properties", "post")).toBe("#/components/schemas/Post");
  });

  it("The post_id path parameter is a UUID", () => {
    for (const operationId of ["getPost", "deletePost", "listComments", "createComment", "votePost"]) {
      const postId = parameter(operationId, "post_id");
      expect(postId).toMatchObject({ in: "path", required: true });
      expect(obj(postId, "schema")).toMatchObject({ type: "string", format: "uuid" });
    }
  });

  it("Create Post is POST /api/v1/posts answering 201 {success, post}", () => {
    const createPost = operation("createPost");
    expect(createPost.path).toBe("/api/v1/posts");
    expect(Object.keys(obj(createPost.operation, "responses")).filter((s) => s.startsWith("2"))).toEqual(["201"]);
    expect(bodySchemaName(response("createPost", "201"))).toBe("PostResponse");
  });

  it("Create Post takes title and content (required) and url and community_id (optional), nothing else", () => {
    const body = obj(operation("createPost").operation, "requestBody");
    expect(body.required).toBe(true);
    expect(bodySchemaName(body)).toBe("CreatePostRequest");
    expect(propertyNames("CreatePostRequest")).toEqual(["community_id", "content", "title", "url"]);
    expect(required("CreatePostRequest")).toEqual(["content", "title"]);
    expect(schema("CreatePostRequest").additionalProperties).toBe(false);
  });

  it("Create Post title is 1 to 300 characters and not blank; content is 1 to 40,000 characters", () => {
    const title = property("CreatePostRequest", "title");
    expect(title).toMatchObject({ type: "string", minLength: 1, maxLength: 300 });
    const pattern = new RegExp(str(title, "pattern"));
    expect(pattern.test("   ")).toBe(false);
    expect(pattern.test(" a ")).toBe(true);
    expect(property("CreatePostRequest", "content")).toMatchObject({ type: "string", minLength: 1, maxLength: 40000 });
  });

  it("Create Post url is optional, null or an http or https URL", () => {
    const url = property("CreatePostRequest", "url");
    expect(url).toMatchObject({ type: ["string", "null"], format: "uri" });
    const pattern = new RegExp(str(url, "pattern"));
    expect(pattern.test("https://example.com/a")).toBe(true);
    expect(pattern.test("ftp://example.com/a")).toBe(false);
  });

  it("community_id is the UUID of the community that receives the post, defaulting to general", () => {
    const communityId = property("CreatePostRequest", "community_id");
    expect(communityId).toMatchObject({ type: "string", format: "uuid" });
    expect(str(communityId, "description")).toMatch(/community that receives the post/);
    expect(str(communityId, "description")).toContain(DEFAULT_COMMUNITY_ID);
    expect(str(communityId, "description")).toMatch(/default community `general`/);
  });

  it(`The default community is general with the fixed id ${DEFAULT_COMMUNITY_ID}, created at start`, () => {
    expect(infoText).toMatch(/default community `general`/);
    expect(infoText).toContain(DEFAULT_COMMUNITY_ID);
    expect(infoText).toMatch(/created when the service\s+starts/);
    expect(at(property("Community", "id"), "examples", 0)).toBe(DEFAULT_COMMUNITY_ID);
  });

  it("Create Post answers 404 NOT_FOUND for an unknown community_id", () => {
    const notFound = response("createPost", "404");
    const examples = obj(notFound, "content", "application/json", "examples");
    expect(at(examples, "communityNotFound", "value", "code")).toBe("NOT_FOUND");
    expect(str(operation("createPost").operation, "description")).toMatch(/404 `NOT_FOUND`/);
  });

  it("List Comments is GET /api/v1/posts/{post_id}/comments answering 200 {success, comments, count, has_more, next_offset}", () => {
    const listComments = operation("listComments");
    expect(listComments.path).toBe("/api/v1/posts/{post_id}/comments");
    expect(bodySchemaName(response("listComments", "200"))).toBe("ListCommentsResponse");
    const names = ["comments", "count", "has_more", "next_offset", "success"];
    expect(propertyNames("ListCommentsResponse")).toEqual(names);
    expect(required("ListCommentsResponse")).toEqual(names);
    expect(refAt(schema("ListCommentsResponse"), "properties", "comments", "items")).toBe(
      "#/components/schemas/Comment",
    );
  });

  it("List Comments pages with limit (default 25, max 100) and offset (default 0), in threaded order", () => {
    expect(obj(parameter("listComments", "limit"), "schema")).toMatchObject({ maximum: 100, default: 25 });
    expect(obj(parameter("listComments", "offset"), "schema")).toMatchObject({ minimum: 0, default: 0 });
    expect(str(operation("listComments").operation, "description")).toMatch(/threaded order/);
  });

  it("A Comment is {id, post_id, parent_id (null at top level), content, upvotes, downvotes, author, created_at}", () => {
    // The seed's fields, plus each comment's place in its thread and the reader's vote.
    const names = [
      "author",
      "content",
      "created_at",
      "depth",
      "downvotes",
      "id",
      "my_vote",
      "parent_id",
      "post_id",
      "upvotes",
    ];
    expect(propertyNames("Comment")).toEqual(names);
    expect(required("Comment")).toEqual(names);
    expect(property("Comment", "parent_id")).toMatchObject({ type: ["string", "null"], format: "uuid" });
    expect(str(property("Comment", "parent_id"), "description")).toMatch(/null for a top-level comment/);
    // The author is an Author, or null once the comment is deleted (shared-forum.test.ts).
    expect(refAt(property("Comment", "author"), "oneOf", 0)).toBe("#/components/schemas/Author");
  });

  it("Create Comment is POST /api/v1/posts/{post_id}/comments with content, answering 201 {success, comment}", () => {
    const createComment = operation("createComment");
    expect(createComment.path).toBe("/api/v1/posts/{post_id}/comments");
    expect(bodySchemaName(obj(createComment.operation, "requestBody"))).toBe("CreateCommentRequest");
    expect(required("CreateCommentRequest")).toEqual(["content"]);
    expect(property("CreateCommentRequest", "content")).toMatchObject({ minLength: 1, maxLength: 10000 });
    expect(bodySchemaName(response("createComment", "201"))).toBe("CommentResponse");
    expect(required("CommentResponse")).toEqual(["comment", "success"]);
  });

  it("The create-comment body may carry parent_id, a comment on the same post, for a reply (else 404)", () => {
    expect(propertyNames("CreateCommentRequest")).toEqual(["content", "parent_id"]);
    expect(schema("CreateCommentRequest").additionalProperties).toBe(false);
    const parentId = property("CreateCommentRequest", "parent_id");
    expect(parentId).toMatchObject({ type: "string", format: "uuid" });
    expect(str(parentId, "description")).toMatch(/same post.*404/s);
  });

  it("comment_count counts every comment on the post, replies included", () => {
    expect(str(property("Post", "comment_count"), "description")).toMatch(/replies included/);
  });

  it("Vote is POST /api/v1/posts/{post_id}/vote with a required direction of up or down", () => {
    const votePost = operation("votePost");
    expect(votePost.path).toBe("/api/v1/posts/{post_id}/vote");
    expect(bodySchemaName(obj(votePost.operation, "requestBody"))).toBe("VoteRequest");
    expect(required("VoteRequest")).toEqual(["direction"]);
    expect(property("VoteRequest", "direction")).toMatchObject({ type: "string", enum: ["up", "down"] });
  });

  it("Vote answers 200 {success, post_id, vote: up|down|null, upvotes, downvotes, action}", () => {
    expect(bodySchemaName(response("votePost", "200"))).toBe("VoteResponse");
    const names = ["action", "downvotes", "post_id", "success", "upvotes", "vote"];
    expect(propertyNames("VoteResponse")).toEqual(names);
    expect(required("VoteResponse")).toEqual(names);
    const vote = property("VoteResponse", "vote");
    const variants = (Array.isArray(vote.oneOf) ? vote.oneOf : []).map((v) => at(v));
    expect(variants).toEqual([{ ...schema("VoteDirection") }, { type: "null" }]);
    expect(property("VoteResponse", "action")).toMatchObject({
      enum: ["upvoted", "downvoted", "removed", "changed"],
    });
  });

  it("Voting the same direction again removes the vote; the other direction flips it", () => {
    const text = str(operation("votePost").operation, "description");
    expect(text).toMatch(/same direction as your current vote removes it \(`action` `removed`, `vote` null\)/);
    expect(text).toMatch(/other direction flips it \(`action` `changed`\)/);
    const values = exampleValues(response("votePost", "200"));
    expect(values.map((v) => [at(v, "action"), at(v, "vote")])).toEqual([
      ["upvoted", "up"],
      ["removed", null],
      ["changed", "down"],
    ]);
  });

  it("Vote counts stay exact under concurrent votes", () => {
    expect(str(operation("votePost").operation, "description")).toMatch(/Counts stay exact under concurrent votes/);
    expect(infoText).toMatch(/Counts stay exact under concurrent votes/);
  });

  it('The error envelope is {"success": false, "error", "code" (UPPER_SNAKE), "hint"}, all required', () => {
    expect(propertyNames("ErrorResponse")).toEqual(["code", "error", "hint", "success"]);
    expect(required("ErrorResponse")).toEqual(["code", "error", "hint", "success"]);
    expect(property("ErrorResponse", "success")).toMatchObject({ type: "boolean", const: false });
    expect(property("ErrorResponse", "code")).toMatchObject({ type: "string", pattern: "^[A-Z][A-Z0-9_]*$" });
    expect(property("ErrorResponse", "error")).toMatchObject({ type: "string" });
    expect(property("ErrorResponse", "hint")).toMatchObject({ type: "string" });
  });

  it("Each error status uses its code: 400 VALIDATION_ERROR/INVALID_JSON/SELF_VOTE, 401, 404, 413, 429, 500", () => {
    expect([...new Set(exampleCodes("BadRequestPostVote"))].sort()).toEqual([
      "INVALID_JSON",
      "SELF_VOTE",
      "VALIDATION_ERROR",
    ]);
    expect([...new Set(exampleCodes("Unauthorized"))]).toEqual(["UNAUTHORIZED"]);
    expect([...new Set(exampleCodes("NotFound"))]).toEqual(["NOT_FOUND"]);
    expect([...new Set(exampleCodes("PayloadTooLarge"))]).toEqual(["PAYLOAD_TOO_LARGE"]);
    expect([...new Set(exampleCodes("TooManyRequests"))]).toEqual(["RATE_LIMITED"]);
    expect([...new Set(exampleCodes("InternalServerError"))]).toEqual(["INTERNAL_ERROR"]);
  });

  it("Every response carries X-Request-Id and X-RateLimit-Limit, -Remaining and -Reset", () => {
    // Documented once for the whole API; the server's contract tests check every answer carries them.
    const section = infoText.slice(infoText.indexOf("## Response headers"));
    expect(section).toMatch(/^## Response headers\n\nEvery response, success or error, carries these headers/);
    for (const header of rateLimitHeaders) {
      expect(section).toContain(`| \`${header}\` |`);
    }
    expect(section).toMatch(/Unix seconds/);
  });

  it("Rate-limit answers are 429 RATE_LIMITED with Retry-After in seconds", () => {
    for (const op of operations()) {
      const res = obj(op.operation, "responses", "429");
      expect(obj(res, "headers", "Retry-After", "schema")).toMatchObject({ type: "integer", minimum: 0 });
    }
    expect(str(obj(spec, "components", "headers", "RetryAfter"), "description")).toMatch(/seconds/);
  });

  it("Reads are limited to 60 and writes (create, vote, delete) to 30 per minute per API key", () => {
    expect(infoText).toMatch(/60 requests per minute per API key/);
    expect(infoText).toMatch(/30 requests per minute per API key/);
    expect(infoText).toMatch(/configurable on the server/);
    const keyed = operations().filter((op) => op.operation.operationId !== "registerAgent");
    for (const op of keyed) {
      const limit = op.method === "get" ? /A read: 60 per minute per API key/ : /A write: 30 per minute per API key/;
      expect(str(op.operation, "description"), String(op.operation.operationId)).toMatch(limit);
    }
    expect(keyed.map((op) => String(op.operation.operationId))).toEqual(
      expect.arrayContaining([...seedOperations, "deletePost", "deleteComment", "createCommunity"]),
    );
  });

  it("Bodies over 1 MiB answer 413 PAYLOAD_TOO_LARGE on every operation that takes a body", () => {
    const withBody = operations()
      .filter((op) => isObject(op.operation.responses) && "413" in op.operation.responses)
      .map((op) => String(op.operation.operationId))
      .sort();
    expect(withBody).toEqual(
      expect.arrayContaining(["createComment", "createCommunity", "createPost", "registerAgent", "votePost"]),
    );
    expect(withBody).toEqual(
      operations()
        .filter((op) => op.operation.requestBody !== undefined)
        .map((op) => String(op.operation.operationId))
        .sort(),
    );
    expect(str(obj(spec, "components", "responses", "PayloadTooLarge"), "description")).toMatch(/1 MiB/);
  });

  it("Client mistakes are 4xx with the error envelope, never 500", () => {
    expect(infoText).toMatch(/always\s+4xx, never 500/);
    for (const op of operations()) {
      const responses = obj(op.operation, "responses");
      for (const status of Object.keys(responses).filter((s) => /^[45]/.test(s))) {
        expect(bodySchemaName(obj(responses, status))).toBe("ErrorResponse");
      }
    }
  });
});
