import { describe, expect, it } from "vitest";
import { ForumProblem, formatForumProblem } from "../forum/forum-errors.ts";
import { formatInboxProblem, InboxProblem } from "../inbox/inbox-errors.ts";
import { ApiProblem } from "./api-problem.ts";

// The type checker runs over this file too: each `@ts-expect-error` below fails the check if its line compiles.
describe("error vocabularies", () => {
  it("lets each service raise only its own codes and the HTTP layer's", () => {
    // @ts-expect-error The forum has no address to be taken.
    expect(new ForumProblem(409, "ADDRESS_TAKEN", "taken").code).toBe("ADDRESS_TAKEN");
    // @ts-expect-error Nor has the HTTP layer: a problem that names no service speaks only its vocabulary.
    expect(new ApiProblem(429, "SEND_LIMIT_EXCEEDED", "too many").code).toBe("SEND_LIMIT_EXCEEDED");
    // @ts-expect-error A code nobody declares.
    expect(new InboxProblem(400, "NO_SUCH_CODE", "?").code).toBe("NO_SUCH_CODE");
    expect(new InboxProblem(409, "ADDRESS_TAKEN", "taken").code).toBe("ADDRESS_TAKEN");
    expect(new ForumProblem(404, "NOT_FOUND", "Post not found.").code).toBe("NOT_FOUND");
  });

  it("answers a service's own problem and the HTTP layer's in that service's envelope", () => {
    const taken = new InboxProblem(409, "ADDRESS_TAKEN", "The address 'a@b.test' is already taken.", {
      field: "username",
    });
    expect(formatInboxProblem(taken)).toEqual({
      status: 409,
      body: {
        error: {
          type: "conflict_error",
          message: "The address 'a@b.test' is already taken.",
          details: { field: "username", code: "ADDRESS_TAKEN" },
        },
      },
    });
    // Every conflict tells retrying clients not to retry it unchanged.
    expect(taken.details.headers).toEqual({ "X-Should-Retry": "false" });

    const malformed = new ApiProblem(400, "INVALID_JSON", "The request body is not valid JSON.", { hint: "Fix it." });
    expect(formatInboxProblem(malformed).body).toEqual({
      error: {
        type: "validation_error",
        message: "The request body is not valid JSON.",
        details: { field: null, code: "INVALID_JSON" },
      },
    });
    expect(formatForumProblem(malformed)).toEqual({
      status: 400,
      body: { success: false, error: "The request body is not valid JSON.", code: "INVALID_JSON", hint: "Fix it." },
    });
    expect(formatForumProblem(new ForumProblem(404, "NOT_FOUND", "Post not found.")).body).toEqual({
      success: false,
      error: "Post not found.",
      code: "NOT_FOUND",
      hint: "Check the id; list posts with GET /api/v1/posts.",
    });
  });
});
