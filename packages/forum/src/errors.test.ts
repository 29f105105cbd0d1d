import { fakeFetch, type Step } from "@pigeonhole/fake-fetch";
import { describe, expect, it } from "vitest";
import { forumError } from "../test/error-response.js";
import {
  APIError,
  createForumClient,
  InternalServerError,
  NotFoundError,
  PigeonholeError,
  RateLimitError,
} from "./index.js";

/** What `forum.get` throws when the server answers `answer`. */
const thrownFor = (answer: Step) =>
  createForumClient({ apiKey: "fk_test", fetch: fakeFetch([answer]).fetch, maxRetries: 0 })
    .get("/api/v1/posts/{post_id}", { params: { path: { post_id: "7c9e6679-7425-40de-944b-e07fc1f90ae7" } } })
    .catch((error: unknown) => error);

describe("the Forum API's error classes", () => {
  it("type a 404 in the forum envelope as a NotFoundError whose body is that envelope", async () => {
    const error = await thrownFor(forumError(404, "NOT_FOUND", "Post not found."));
    if (!(error instanceof NotFoundError)) {
      throw new Error(`expected the forum NotFoundError, got ${String(error)}`);
    }
    expect(error.service).toBe("forum");
    expect(error.body.code).toBe("NOT_FOUND");
    expect(error.body.hint).toBe("See the API reference.");
    expect(error.code).toBe("NOT_FOUND");
  });

  it("do not take the inbox's envelope for the forum's: a misrouted 404 is a plain APIError without body", async () => {
    const inboxAnswer = {
      error: { type: "not_found_error", message: "No such inbox.", details: { field: null, code: "NOT_FOUND" } },
    };
    const error = await thrownFor(Response.json(inboxAnswer, { status: 404 }));
    expect(error).not.toBeInstanceOf(NotFoundError);
    expect(error).toBeInstanceOf(APIError);
    expect(error).toBeInstanceOf(PigeonholeError);
    expect(error).toMatchObject({ name: "APIError", service: "forum", status: 404, body: undefined });
    expect((error as APIError).rawBody).toEqual(inboxAnswer);
  });

  it("keep a gateway's 503 page out of `body`, and in the message", async () => {
    const error = await thrownFor(new Response("Service Unavailable", { status: 503 }));
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error).toMatchObject({ status: 503, body: undefined, rawBody: "Service Unavailable" });
    expect((error as InternalServerError).message).toBe("503 Service Unavailable");
  });

  it("keep RateLimitError and its wait for a 429 without the envelope", async () => {
    const error = await thrownFor(new Response(null, { status: 429, headers: { "retry-after": "12" } }));
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ body: undefined, retryAfter: 12 });
  });
});
