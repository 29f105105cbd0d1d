import { fakeFetch, type Step } from "@pigeonhole/fake-fetch";
import { describe, expect, it } from "vitest";
import { inboxError } from "../test/error-response.js";
import {
  APIError,
  createInboxClient,
  InternalServerError,
  NotFoundError,
  PigeonholeError,
  RateLimitError,
} from "./index.js";

/** What `inbox.get` throws when the server answers `answer`. */
const thrownFor = (answer: Step) =>
  createInboxClient({ apiKey: "pk_test", fetch: fakeFetch([answer]).fetch, maxRetries: 0 })
    .get("/v0/inboxes/{inbox_id}", { params: { path: { inbox_id: "support@pigeonhole.test" } } })
    .catch((error: unknown) => error);

describe("the Inbox API's error classes", () => {
  it("type a 404 in the inbox envelope as a NotFoundError whose body is that envelope", async () => {
    const error = await thrownFor(inboxError(404, "NOT_FOUND", "No inbox support@pigeonhole.test"));
    if (!(error instanceof NotFoundError)) {
      throw new Error(`expected the inbox NotFoundError, got ${String(error)}`);
    }
    expect(error.service).toBe("inbox");
    expect(error.body.error.details.code).toBe("NOT_FOUND");
    expect(error.code).toBe("NOT_FOUND");
  });

  it("do not take the forum's envelope for the inbox's: a misrouted 404 is a plain APIError without body", async () => {
    const forumAnswer = { success: false, error: "Post not found.", code: "NOT_FOUND", hint: "List posts." };
    const error = await thrownFor(Response.json(forumAnswer, { status: 404 }));
    expect(error).not.toBeInstanceOf(NotFoundError);
    expect(error).toBeInstanceOf(APIError);
    expect(error).toBeInstanceOf(PigeonholeError);
    expect(error).toMatchObject({ name: "APIError", service: "inbox", status: 404, body: undefined });
    expect((error as APIError).rawBody).toEqual(forumAnswer);
  });

  it("keep a gateway's 502 page out of `body`, and in the message", async () => {
    const error = await thrownFor(new Response("<h1>502 Bad Gateway</h1>", { status: 502 }));
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error).toMatchObject({ status: 502, body: undefined, rawBody: "<h1>502 Bad Gateway</h1>" });
    expect((error as InternalServerError).message).toBe("502 <h1>502 Bad Gateway</h1>");
  });

  it("keep RateLimitError and its wait for a 429 without the envelope", async () => {
    const error = await thrownFor(new Response("slow down", { status: 429, headers: { "retry-after": "30" } }));
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ body: undefined, retryAfter: 30 });
  });
});
