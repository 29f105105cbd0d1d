import { describe, expect, it } from "vitest";
import { matchesPathPattern } from "./path-pattern.ts";

describe("path patterns of request faults", () => {
  it.each([
    ["/v0/inboxes", "/v0/inboxes", true],
    ["/v0/inboxes", "/v0/inboxes/x", false],
    ["/v0/inboxes/*/messages", "/v0/inboxes/ada%40pigeonhole.test/messages", true],
    ["/v0/inboxes/ada@pigeonhole.test/messages", "/v0/inboxes/ada%40pigeonhole.test/messages", true],
    ["/v0/inboxes/*/messages", "/v0/inboxes/a/b/messages", false],
    ["/v0/inboxes/*", "/v0/inboxes", false],
    ["/api/v1/**", "/api/v1", true],
    ["/api/v1/**", "/api/v1/posts/1/comments", true],
    ["/**/comments", "/api/v1/posts/1/comments", true],
    ["/**/comments", "/api/v1/posts/1/vote", false],
    ["/**", "/", true],
    ["/V0/inboxes", "/v0/inboxes", false],
    ["/v0/*/x%zz", "/v0/a/x%zz", true],
  ])("%s against %s: %s", (pattern, path, expected) => {
    expect(matchesPathPattern(pattern, path)).toBe(expected);
  });
});
