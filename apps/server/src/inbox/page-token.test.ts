import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { InboxProblem } from "./inbox-errors.ts";
import { type PageCursor, PageTokens } from "./page-token.ts";

const secret = randomBytes(32);
const cursor = (seq: number): PageCursor => ({ createdAt: "2026-01-01T00:00:00.000Z", seq });
const POD_A = "pod-a inboxes";
const POD_B = "pod-b inboxes";

describe("page tokens issued from the cache of recent tokens", () => {
  it("answers the token sealing makes, so a restarted instance issues and reads the same one", () => {
    const tokens = new PageTokens(secret);
    const first = tokens.issue(POD_A, cursor(7));
    expect(tokens.issue(POD_A, cursor(7))).toBe(first);
    const restarted = new PageTokens(secret);
    expect(restarted.issue(POD_A, cursor(7))).toBe(first);
    expect(restarted.read(POD_A, first)).toEqual(cursor(7));
  });

  it("never hands one list's token to another list with the same cursor, nor reads it there", () => {
    const tokens = new PageTokens(secret);
    const podA = tokens.issue(POD_A, cursor(7));
    const podB = tokens.issue(POD_B, cursor(7));
    expect(podB).not.toBe(podA);
    expect(() => tokens.read(POD_B, podA)).toThrow(InboxProblem);
    expect(() => tokens.read(POD_A, podB)).toThrow(InboxProblem);
  });

  it("keeps a flood of distinct cursors bounded: an evicted token is sealed again, the same", () => {
    const tokens = new PageTokens(secret);
    const first = tokens.issue(POD_A, cursor(0));
    for (let seq = 1; seq <= 5_000; seq++) {
      tokens.issue(POD_A, cursor(seq));
    }
    expect(tokens.issue(POD_A, cursor(0))).toBe(first);
    expect(tokens.read(POD_A, first)).toEqual(cursor(0));
  });
});
