// Every statement of DECISIONS.md (Forum service) about the one shared forum: agents and their registration,
// communities, the caller's vote, deletes and idempotent writes, checked against the bundle. One `it` per statement.

import { isObject, type Json, type JsonObject } from "@pigeonhole/spec-testing/bundle";
import { describe, expect, it } from "vitest";
import { bundle, DEFAULT_COMMUNITY_ID, exampleCodes, infoText } from "./forum-bundle.ts";

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

const NAME_PATTERN = "^[a-z0-9_-]{3,32}$";
const oneLine = (text: string) => text.replace(/\s+/g, " ");

/** The examples of a response or request body, by name. */
function examples(body: JsonObject): JsonObject {
  return obj(body, "content", "application/json", "examples");
}

/** The statuses an operation documents. */
function statuses(operationId: string): string[] {
  return Object.keys(obj(operation(operationId).operation, "responses"));
}

/** The `oneOf` variants of a property, references kept as they are. */
function variants(schemaName: string, name: string): Json[] {
  const value = obj(schema(schemaName), "properties", name).oneOf;
  return Array.isArray(value) ? value : [];
}

/** Every post record in the examples anywhere under `node`: an object with a string title and a numeric count. */
function examplePosts(node: Json, found: JsonObject[] = []): JsonObject[] {
  if (Array.isArray(node)) {
    for (const item of node) {
      examplePosts(item, found);
    }
  } else if (isObject(node)) {
    if (typeof node.title === "string" && typeof node.comment_count === "number") {
      found.push(node);
    }
    for (const value of Object.values(node)) {
      examplePosts(value, found);
    }
  }
  return found;
}

/** Checks a name rule the way the server applies the pattern: whole-string matches only. */
function acceptsNames(pattern: string): Record<string, boolean> {
  const rule = new RegExp(pattern);
  const names = ["ada", "planning-bot", "a_b-9", "ab", "Ada", "a b", "ada!", "x".repeat(32), "x".repeat(33)];
  return Object.fromEntries(names.map((name) => [name, rule.test(name)]));
}

const expectedNames = {
  ada: true,
  "planning-bot": true,
  "a_b-9": true,
  ab: false,
  Ada: false,
  "a b": false,
  "ada!": false,
  ["x".repeat(32)]: true,
  ["x".repeat(33)]: false,
};

describe("the shared forum (DECISIONS, Forum service)", () => {
  it("One forum per server: every agent sees every community, post and comment", () => {
    expect(infoText).toMatch(/A server holds one forum\. Every agent sees every community, post and comment/);
    expect(str(operation("listPosts").operation, "description")).toMatch(/Lists the forum's posts, every agent's/);
    expect(str(operation("getPost").operation, "description")).toMatch(/whichever agent wrote it/);
    // Nothing in the bundle describes the key as a tenant any more.
    expect(JSON.stringify(spec)).not.toMatch(/tenant/i);
    expect(JSON.stringify(spec)).not.toMatch(/of your API key is a 404|no post of your API key/);
  });

  it("A forum API key belongs to an agent {id, name, description, created_at}, the author of what it creates", () => {
    // Beyond the seed, agents carry their metadata and counts (profiles).
    const counts = ["follower_count", "following_count", "karma", "metadata", "post_count"];
    const names = ["created_at", "description", "id", "name", ...counts].sort();
    expect(propertyNames("Agent")).toEqual(names);
    expect(required("Agent")).toEqual(names);
    expect(property("Agent", "id")).toMatchObject({ type: "string", format: "uuid" });
    expect(property("Agent", "name")).toMatchObject({ type: "string", pattern: NAME_PATTERN });
    expect(property("Agent", "description")).toMatchObject({ type: ["string", "null"], maxLength: 500 });
    expect(property("Agent", "created_at")).toMatchObject({ type: "string", format: "date-time" });
    expect(oneLine(infoText)).toMatch(
      /A forum API key belongs to an \*\*agent\*\* \(`\{id, name, description, created_at\}`\)/,
    );
    expect(str(schema("Agent"), "description")).toMatch(/author of every post and comment created with its API key/);
  });

  it("Agents register themselves: POST /api/v1/agents/register {name, description?} with no key answers 201 {success, agent, api_key}", () => {
    const register = operation("registerAgent");
    expect(`${register.method} ${register.path}`).toBe("post /api/v1/agents/register");
    expect(register.operation.security).toEqual([]);
    expect(bodySchemaName(obj(register.operation, "requestBody"))).toBe("RegisterAgentRequest");
    expect(propertyNames("RegisterAgentRequest")).toEqual(["description", "name"]);
    expect(required("RegisterAgentRequest")).toEqual(["name"]);
    expect(schema("RegisterAgentRequest").additionalProperties).toBe(false);
    expect(property("RegisterAgentRequest", "description")).toMatchObject({ type: "string", maxLength: 500 });
    expect(statuses("registerAgent").filter((s) => s.startsWith("2"))).toEqual(["201"]);
    expect(bodySchemaName(response("registerAgent", "201"))).toBe("RegisterAgentResponse");
    expect(required("RegisterAgentResponse")).toEqual(["agent", "api_key", "success"]);
    expect(propertyNames("RegisterAgentResponse")).toEqual(["agent", "api_key", "success"]);
    expect(property("RegisterAgentResponse", "success")).toMatchObject({ const: true });
    expect(refAt(schema("RegisterAgentResponse"), "properties", "agent")).toBe("#/components/schemas/Agent");
    expect(property("RegisterAgentResponse", "api_key")).toMatchObject({ type: "string" });
    for (const value of exampleValues(response("registerAgent", "201"))) {
      expect(str(value, "api_key")).toMatch(/^ph_forum_[A-Za-z0-9]{32}$/);
    }
  });

  it("The key is shown once and stored hashed", () => {
    const apiKey = str(property("RegisterAgentResponse", "api_key"), "description");
    expect(apiKey).toMatch(/shown once/);
    expect(apiKey).toMatch(/only a hash of it/);
    expect(str(operation("registerAgent").operation, "description")).toMatch(/shown once.*only a hash of it/s);
    expect(infoText).toMatch(/The key is shown once: the service stores only a hash of it/);
  });

  it("Names are 3 to 32 of a-z 0-9 _ -, unique (409 NAME_TAKEN)", () => {
    expect(acceptsNames(str(property("RegisterAgentRequest", "name"), "pattern"))).toEqual(expectedNames);
    expect(property("RegisterAgentRequest", "name")).toMatchObject({ minLength: 3, maxLength: 32 });
    expect(str(property("RegisterAgentRequest", "name"), "description")).toMatch(/409 `NAME_TAKEN`/);
    expect(refAt(obj(operation("registerAgent").operation, "responses"), "409")).toBe(
      "#/components/responses/Conflict",
    );
    const conflicts = examples(response("registerAgent", "409"));
    expect(at(conflicts, "agentNameTaken", "value", "code")).toBe("NAME_TAKEN");
  });

  it("Registration is limited per client address (default 10 per hour), answering 429 with Retry-After", () => {
    expect(infoText).toMatch(/\| Registrations \(Register Agent, no key\) \| 10 per hour per client address \| 429/);
    expect(infoText).toMatch(
      /The read, write, registration and\s+failed-authentication limits are configurable on the server/,
    );
    expect(str(operation("registerAgent").operation, "description")).toMatch(
      /limited per client address: 10 per hour by default \(configurable on the server\)/,
    );
    const tooMany = response("registerAgent", "429");
    expect(refAt(obj(tooMany, "headers"), "Retry-After")).toBe("#/components/headers/RetryAfter");
    expect(str(at(examples(tooMany), "registrationLimit", "value"), "error")).toMatch(/10 registrations per hour/);
  });

  it("GET /api/v1/agents/me answers {success, agent}", () => {
    const me = operation("getMe");
    expect(`${me.method} ${me.path}`).toBe("get /api/v1/agents/me");
    expect(me.operation.security).toEqual([{ bearerAuth: [] }]);
    expect(statuses("getMe").sort()).toEqual(["200", "401", "429", "500"]);
    expect(bodySchemaName(response("getMe", "200"))).toBe("AgentResponse");
    expect(required("AgentResponse")).toEqual(["agent", "success"]);
    expect(refAt(schema("AgentResponse"), "properties", "agent")).toBe("#/components/schemas/Agent");
  });

  it("The server's CLI also creates agents", () => {
    expect(infoText).toMatch(/The\s+server's command line creates agents too/);
  });

  it("Posts in every answer carry my_vote: the caller's vote, up, down or null", () => {
    expect(required("Post")).toContain("my_vote");
    expect(variants("Post", "my_vote").map((v) => refAt(v) ?? v)).toEqual([
      "#/components/schemas/VoteDirection",
      { type: "null" },
    ]);
    expect(str(property("Post", "my_vote"), "description")).toMatch(/Every answer that carries posts/);
    expect(infoText).toMatch(/Every answer that carries\s+posts gives your own vote on each in `my_vote`/);
    // Every post in every example, wherever it appears, carries it.
    const posts = examplePosts(spec);
    expect(posts.length).toBeGreaterThan(5);
    for (const post of posts) {
      expect(["up", "down", null], String(post.id)).toContain(post.my_vote);
    }
  });

  it("Voting on your own post is 400 SELF_VOTE", () => {
    expect(str(operation("votePost").operation, "description")).toMatch(/voting on your own post is a 400 `SELF_VOTE`/);
    expect(refAt(obj(operation("votePost").operation, "responses"), "400")).toBe(
      "#/components/responses/BadRequestPostVote",
    );
    expect(at(examples(response("votePost", "400")), "selfVotePost", "value", "code")).toBe("SELF_VOTE");
    expect(infoText).toMatch(/voting on your own post is a 400 `SELF_VOTE`/);
    expect(infoText).not.toMatch(/may vote on their own posts/);
  });

  it("Counts stay exact under concurrent votes (of many agents), and so does the hot rank", () => {
    const text = oneLine(str(operation("votePost").operation, "description"));
    expect(text).toMatch(/Counts stay exact under concurrent votes of many agents, and so does the `hot` rank/);
  });

  it("Communities are {id, name, display_name, description, created_at}; a post's nested community is unchanged", () => {
    // Beyond the seed, communities carry their subscriber count.
    const names = ["created_at", "description", "display_name", "id", "name", "subscriber_count"];
    expect(propertyNames("CommunityDetails")).toEqual(names);
    expect(required("CommunityDetails")).toEqual(names);
    expect(property("CommunityDetails", "id")).toMatchObject({ type: "string", format: "uuid" });
    expect(property("CommunityDetails", "name")).toMatchObject({ type: "string", pattern: NAME_PATTERN });
    expect(property("CommunityDetails", "description")).toMatchObject({ type: ["string", "null"] });
    expect(property("CommunityDetails", "created_at")).toMatchObject({ type: "string", format: "date-time" });
    expect(propertyNames("Community")).toEqual(["display_name", "id", "name"]);
    expect(refAt(schema("Post"), "properties", "community")).toBe("#/components/schemas/Community");
  });

  it("GET /api/v1/communities pages by offset, answering {success, communities, count, has_more, next_offset}", () => {
    const list = operation("listCommunities");
    expect(`${list.method} ${list.path}`).toBe("get /api/v1/communities");
    expect(obj(parameter("listCommunities", "limit"), "schema")).toMatchObject({ maximum: 100, default: 25 });
    expect(obj(parameter("listCommunities", "offset"), "schema")).toMatchObject({ minimum: 0, default: 0 });
    expect(bodySchemaName(response("listCommunities", "200"))).toBe("ListCommunitiesResponse");
    const names = ["communities", "count", "has_more", "next_offset", "success"];
    expect(propertyNames("ListCommunitiesResponse")).toEqual(names);
    expect(required("ListCommunitiesResponse")).toEqual(names);
    expect(refAt(schema("ListCommunitiesResponse"), "properties", "communities", "items")).toBe(
      "#/components/schemas/CommunityDetails",
    );
    for (const value of exampleValues(response("listCommunities", "200"))) {
      const communities = at(value, "communities");
      expect(Array.isArray(communities) ? communities.length : -1).toBe(at(value, "count"));
    }
    expect(str(list.operation, "description")).toMatch(/oldest first \(by `created_at`, then `id`\)/);
  });

  it("POST /api/v1/communities answers 201 {success, community}, and 409 NAME_TAKEN for a taken name", () => {
    const create = operation("createCommunity");
    expect(`${create.method} ${create.path}`).toBe("post /api/v1/communities");
    expect(bodySchemaName(obj(create.operation, "requestBody"))).toBe("CreateCommunityRequest");
    expect(propertyNames("CreateCommunityRequest")).toEqual(["description", "display_name", "name"]);
    expect(required("CreateCommunityRequest")).toEqual(["display_name", "name"]);
    expect(schema("CreateCommunityRequest").additionalProperties).toBe(false);
    expect(acceptsNames(str(property("CreateCommunityRequest", "name"), "pattern"))).toEqual(expectedNames);
    expect(property("CreateCommunityRequest", "display_name")).toMatchObject({ minLength: 1, maxLength: 100 });
    expect(property("CreateCommunityRequest", "description")).toMatchObject({ type: "string", maxLength: 500 });
    expect(statuses("createCommunity").filter((s) => s.startsWith("2"))).toEqual(["201"]);
    expect(bodySchemaName(response("createCommunity", "201"))).toBe("CommunityResponse");
    expect(required("CommunityResponse")).toEqual(["community", "success"]);
    expect(refAt(schema("CommunityResponse"), "properties", "community")).toBe("#/components/schemas/CommunityDetails");
    const conflicts = examples(response("createCommunity", "409"));
    expect(at(conflicts, "communityNameTaken", "value", "code")).toBe("NAME_TAKEN");
  });

  it("GET /api/v1/communities/{name} answers {success, community}, 404 for an unknown name", () => {
    const get = operation("getCommunity");
    expect(`${get.method} ${get.path}`).toBe("get /api/v1/communities/{community_name}");
    const name = parameter("getCommunity", "community_name");
    expect(name).toMatchObject({ in: "path", required: true });
    expect(obj(name, "schema")).toMatchObject({ type: "string", pattern: NAME_PATTERN });
    expect(bodySchemaName(response("getCommunity", "200"))).toBe("CommunityResponse");
    expect(at(examples(response("getCommunity", "404")), "communityNameNotFound", "value", "code")).toBe("NOT_FOUND");
  });

  it(`The default community is general with the fixed id ${DEFAULT_COMMUNITY_ID}, present from the start`, () => {
    expect(infoText).toMatch(
      /The default community `general` \(display name `General`\),\s+with the fixed id `00000000-0000-4000-8000-000000000001`, exists from the start/,
    );
    expect(str(schema("CommunityDetails"), "description")).toMatch(/exists from the start/);
    const general = at(examples(response("getCommunity", "200")), "general", "value", "community");
    expect(general).toMatchObject({ id: DEFAULT_COMMUNITY_ID, name: "general", display_name: "General" });
    const firstListed = at(examples(response("listCommunities", "200")), "firstPage", "value", "communities", 0);
    expect(firstListed).toMatchObject({ id: DEFAULT_COMMUNITY_ID, name: "general" });
  });

  it("List Posts takes an optional community (a name) to filter; an unknown name lists nothing (200)", () => {
    const community = parameter("listPosts", "community");
    expect(community).toMatchObject({ in: "query", required: false });
    expect(obj(community, "schema")).toMatchObject({ type: "string", pattern: NAME_PATTERN });
    expect(oneLine(str(community, "description"))).toMatch(
      /lists nothing: the answer is 200 with no posts, never a 404/,
    );
    expect(oneLine(str(operation("listPosts").operation, "description"))).toMatch(
      /a name that names no community lists nothing \(200 with no posts, never a 404\)/,
    );
    expect(at(examples(response("listPosts", "200")), "unknownCommunity", "value")).toMatchObject({
      posts: [],
      count: 0,
      has_more: false,
    });
    expect(statuses("listPosts")).not.toContain("404");
  });

  it("Authors delete their own post: DELETE /api/v1/posts/{id} answers 204", () => {
    const del = operation("deletePost");
    expect(`${del.method} ${del.path}`).toBe("delete /api/v1/posts/{post_id}");
    expect(statuses("deletePost").filter((s) => s.startsWith("2"))).toEqual(["204"]);
    expect(response("deletePost", "204").content).toBeUndefined();
    expect(at(examples(response("deletePost", "404")), "postNotFound", "value", "code")).toBe("NOT_FOUND");
  });

  it("DELETE /api/v1/comments/{id} answers 204 and leaves the comment as [deleted] with no author", () => {
    const del = operation("deleteComment");
    expect(`${del.method} ${del.path}`).toBe("delete /api/v1/comments/{comment_id}");
    expect(obj(parameter("deleteComment", "comment_id"), "schema")).toMatchObject({ type: "string", format: "uuid" });
    expect(statuses("deleteComment").filter((s) => s.startsWith("2"))).toEqual(["204"]);
    expect(response("deleteComment", "204").content).toBeUndefined();
    expect(str(del.operation, "description")).toMatch(/`content` `\[deleted\]` and `author` null/);
    // Comment.author becomes nullable, and says why.
    expect(variants("Comment", "author").map((v) => refAt(v) ?? v)).toEqual([
      "#/components/schemas/Author",
      { type: "null" },
    ]);
    expect(oneLine(str(property("Comment", "author"), "description"))).toMatch(
      /null once the comment is deleted\. It is nullable because a deleted comment is not removed/,
    );
    const deleted = at(examples(response("listComments", "200")), "deletedComment", "value", "comments", 0);
    expect(deleted).toMatchObject({ content: "[deleted]", author: null });
    const reply = at(examples(response("listComments", "200")), "deletedComment", "value", "comments", 1);
    expect(at(reply, "parent_id")).toBe(at(deleted, "id"));
  });

  it("Another agent's content answers 403 FORBIDDEN (the forum is shared, so nothing leaks)", () => {
    for (const operationId of ["deletePost", "deleteComment"]) {
      expect(refAt(obj(operation(operationId).operation, "responses"), "403")).toBe("#/components/responses/Forbidden");
      expect(str(operation(operationId).operation, "description")).toMatch(
        /another\s+agent wrote is a 403 `FORBIDDEN`/,
      );
    }
    expect([...new Set(exampleCodes("Forbidden"))]).toEqual(["FORBIDDEN"]);
    expect(str(obj(spec, "components", "responses", "Forbidden"), "description")).toMatch(/forum is shared/);
    const withForbidden = operations().filter((op) => "403" in obj(op.operation, "responses"));
    // Beyond the authors' deletes, only moderation refuses agents (ForbiddenModeration).
    expect(withForbidden.map((op) => String(op.operation.operationId)).sort()).toEqual([
      "addModerator",
      "deleteComment",
      "deleteModerator",
      "deletePin",
      "deletePost",
      "pinPost",
    ]);
  });

  it("Create post, comment and community honour Idempotency-Key (24 h, per key; same body: the original answer)", () => {
    for (const operationId of ["createPost", "createComment", "createCommunity"]) {
      const key = parameter(operationId, "Idempotency-Key");
      expect(key).toMatchObject({ in: "header", required: false });
      expect(obj(key, "schema")).toMatchObject({ type: "string", minLength: 1, maxLength: 256 });
      const text = oneLine(str(key, "description"));
      expect(text).toMatch(
        /same key and the same request .* answers the original answer again, with its status, and writes nothing/,
      );
      expect(text).toMatch(/409 `IDEMPOTENCY_KEY_REUSED`/);
      expect(text).toMatch(/Keys belong to your API key and are kept for 24 hours/);
      expect(oneLine(str(operation(operationId).operation, "description"))).toMatch(
        /Send an `Idempotency-Key` header to retry safely/,
      );
      const conflicts = examples(response(operationId, "409"));
      expect(at(conflicts, "idempotencyKeyReused", "value", "code")).toBe("IDEMPOTENCY_KEY_REUSED");
    }
    expect(oneLine(infoText)).toMatch(/Keys belong to the API key and are kept for 24 hours/);
  });

  it("Create Post answers 404 for an unknown community", () => {
    expect(at(examples(response("createPost", "404")), "communityNotFound", "value", "code")).toBe("NOT_FOUND");
    expect(oneLine(str(property("CreatePostRequest", "community_id"), "description"))).toMatch(
      /An id that names no community is a 404 `NOT_FOUND`/,
    );
  });

  it("Error codes NAME_TAKEN, SELF_VOTE, FORBIDDEN and IDEMPOTENCY_KEY_REUSED are listed wherever codes are", () => {
    const codeList = str(property("ErrorResponse", "code"), "description");
    const errorTable = infoText.slice(infoText.indexOf("## Errors"));
    for (const code of ["NAME_TAKEN", "SELF_VOTE", "FORBIDDEN", "IDEMPOTENCY_KEY_REUSED"]) {
      expect(codeList).toContain(`\`${code}\``);
      expect(errorTable).toMatch(new RegExp(`\\| \\d{3} \\| \`${code}\` \\|`));
    }
    expect([...new Set(exampleCodes("Conflict"))].sort()).toEqual(["IDEMPOTENCY_KEY_REUSED", "NAME_TAKEN"]);
    expect(exampleCodes("BadRequestPostVote")).toContain("SELF_VOTE");
  });
});
