import { describe, expect, it } from "vitest";
import { createResponseValidator } from "./response-validator.ts";

const validate = createResponseValidator("forum");

const everyResponseHeaders = {
  "X-Request-Id": "req_0123456789abcdef",
  "X-RateLimit-Limit": "60",
  "X-RateLimit-Remaining": "59",
  "X-RateLimit-Reset": "1795339860",
};

const notFound = (headers: Record<string, string>) =>
  validate({
    method: "GET",
    specPath: "/api/v1/posts/{post_id}",
    status: 404,
    headers: new Headers(headers),
    body: { success: false, error: "Post not found.", code: "NOT_FOUND", hint: "Check the post id." },
  });

describe("the response validator", () => {
  it("passes an answer that carries the headers every response carries", () => {
    expect(notFound(everyResponseHeaders)).toEqual([]);
  });

  it("names each of those headers that is missing or malformed, though no response declares them", () => {
    const { "X-Request-Id": _, ...withoutId } = everyResponseHeaders;
    expect(notFound(withoutId)).toEqual(["GET /api/v1/posts/{post_id} -> 404: header X-Request-Id is missing"]);
    expect(notFound({ ...everyResponseHeaders, "X-RateLimit-Remaining": "-1" })).toEqual([
      "GET /api/v1/posts/{post_id} -> 404: header X-RateLimit-Remaining=-1 is malformed",
    ]);
  });
});
