import * as forum from "@pigeonhole/forum";
import * as inbox from "@pigeonhole/inbox";
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import { type Server, startServer } from "../../src/index.ts";

// Both clients against one real server over HTTP on 127.0.0.1: each client's error classes are its own, so a
// catch written for one client's 404 never takes the other's, and narrowing never gives the wrong envelope.

let server: Server;
beforeAll(async () => {
  server = await startServer({ database: ":memory:", inboxPort: 0, forumPort: 0, logger: false });
});
afterAll(async () => {
  await server?.close();
});

const inboxNotFound = () =>
  inbox
    .createInboxClient({ baseUrl: server.inbox.url, apiKey: server.inbox.apiKey, maxRetries: 0 })
    .get("/v0/inboxes/{inbox_id}", { params: { path: { inbox_id: "nobody@pigeonhole.test" } } })
    .catch((error: unknown) => error);

const forumNotFound = () =>
  forum
    .createForumClient({ baseUrl: server.forum.url, apiKey: server.forum.apiKey, maxRetries: 0 })
    .get("/api/v1/posts/{post_id}", { params: { path: { post_id: "7c9e6679-7425-40de-944b-e07fc1f90ae7" } } })
    .catch((error: unknown) => error);

describe("the two clients' errors", () => {
  it("a forum 404 is not the inbox client's NotFoundError, nor any of its classes", async () => {
    const error = await forumNotFound();
    expect(error).toBeInstanceOf(forum.NotFoundError);
    expect(error).not.toBeInstanceOf(inbox.NotFoundError);
    expect(error).not.toBeInstanceOf(inbox.APIError);
    expect(error).toBeInstanceOf(inbox.PigeonholeError);
  });

  it("an inbox 404 is not the forum client's NotFoundError, nor any of its classes", async () => {
    const error = await inboxNotFound();
    expect(error).toBeInstanceOf(inbox.NotFoundError);
    expect(error).not.toBeInstanceOf(forum.NotFoundError);
    expect(error).not.toBeInstanceOf(forum.APIError);
    expect(error).toBeInstanceOf(forum.PigeonholeError);
  });

  it("narrowing gives each client's envelope, and one client's error narrowed by the other's class is never", async () => {
    const error = await inboxNotFound();
    if (!(error instanceof inbox.NotFoundError)) {
      throw new Error("expected the inbox NotFoundError");
    }
    expectTypeOf(error.body).toEqualTypeOf<inbox.ErrorResponse>();
    expect(error.body.error.details.code).toBe("NOT_FOUND");
    const forumError = (await forumNotFound()) as forum.NotFoundError;
    expectTypeOf(forumError.body).toEqualTypeOf<forum.ErrorResponse>();
    if (forumError instanceof inbox.NotFoundError) {
      expectTypeOf(forumError).toBeNever();
    }
    // @ts-expect-error a forum 404 is not an inbox 404
    const asInbox: inbox.NotFoundError = forumError;
    void asInbox;
  });
});
