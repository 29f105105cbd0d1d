import { describe, expectTypeOf, it } from "vitest";
import {
  APIError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  createInboxClient,
  type ErrorResponse,
  type Inbox,
  InternalServerError,
  type ListInboxesResponse,
  type Message,
  type MessageItem,
  NotFoundError,
  type Paginator,
  PayloadTooLargeError,
  type PigeonholeError,
  RateLimitError,
  type SendMessageResponse,
  type ThreadItem,
  verifyWebhook,
  type Webhook,
  type WebhookEvent,
} from "./index.js";

const inbox = createInboxClient({ apiKey: "k" });
const inbox_id = "support@pigeonhole.test";

describe("throwing style", () => {
  it("infers the response body of each operation", () => {
    expectTypeOf(inbox.get("/v0/inboxes")).resolves.toEqualTypeOf<ListInboxesResponse>();
    expectTypeOf(
      inbox.get("/v0/inboxes/{inbox_id}", { params: { path: { inbox_id } } }),
    ).resolves.toEqualTypeOf<Inbox>();
    expectTypeOf(
      inbox.post("/v0/inboxes/{inbox_id}/messages", { params: { path: { inbox_id } }, body: { to: "a@b.test" } }),
    ).resolves.toEqualTypeOf<SendMessageResponse>();
    expectTypeOf(
      inbox.get("/v0/inboxes/{inbox_id}/messages/{message_id}", {
        params: { path: { inbox_id, message_id: "<m@x>" } },
      }),
    ).resolves.toEqualTypeOf<Message>();
  });

  it("resolves a 204 to undefined", () => {
    expectTypeOf(
      inbox.delete("/v0/webhooks/{webhook_id}", { params: { path: { webhook_id: "wh_1" } } }),
    ).resolves.toEqualTypeOf<undefined>();
  });

  it("requires path params", () => {
    // @ts-expect-error the init with params.path.inbox_id is required
    void inbox.get("/v0/inboxes/{inbox_id}");
    // @ts-expect-error params.path must name inbox_id
    void inbox.get("/v0/inboxes/{inbox_id}", { params: { path: { inbox: inbox_id } } });
    // @ts-expect-error inbox_id is a string
    void inbox.get("/v0/inboxes/{inbox_id}", { params: { path: { inbox_id: 42 } } });
  });

  it("checks the body against the spec", () => {
    // @ts-expect-error a send needs `to`
    void inbox.post("/v0/inboxes/{inbox_id}/messages", { params: { path: { inbox_id } }, body: { subject: "Hi" } });
    void inbox.post("/v0/inboxes/{inbox_id}/messages", {
      params: { path: { inbox_id } },
      // @ts-expect-error `to` is an address or a list of addresses
      body: { to: 42 },
    });
    void inbox.post("/v0/inboxes/{inbox_id}/messages", {
      params: { path: { inbox_id } },
      // @ts-expect-error `subjekt` is not a field of a send
      body: { to: "a@b.test", subjekt: "Hi" },
    });
    // @ts-expect-error a webhook needs a url
    void inbox.post("/v0/webhooks", { body: { enabled: true } });
    // @ts-expect-error the body of a send is required
    void inbox.post("/v0/inboxes/{inbox_id}/messages", { params: { path: { inbox_id } } });
  });

  it("checks the query against the spec", () => {
    void inbox.get("/v0/inboxes", { params: { query: { limit: 10, page_token: "t" } } });
    // @ts-expect-error limit is a number
    void inbox.get("/v0/inboxes", { params: { query: { limit: "10" } } });
  });

  it("rejects paths and methods the spec does not have", () => {
    // @ts-expect-error no such path
    void inbox.get("/v0/mailboxes");
    // @ts-expect-error inboxes cannot be replaced
    void inbox.put("/v0/inboxes/{inbox_id}", { params: { path: { inbox_id } } });
    // @ts-expect-error the forum's paths are not the inbox's
    void inbox.get("/api/v1/posts");
  });

  it("takes per-call options", () => {
    void inbox.post("/v0/inboxes/{inbox_id}/messages", {
      params: { path: { inbox_id } },
      body: { to: ["a@b.test"] },
      timeout: 5_000,
      maxRetries: 0,
      idempotencyKey: "send-42",
      signal: new AbortController().signal,
    });
    // @ts-expect-error timeout is in milliseconds, a number
    void inbox.get("/v0/inboxes", { timeout: "5s" });
  });

  it("rejects unknown options, so a typo is caught", () => {
    // @ts-expect-error `timout` is not an option
    void inbox.get("/v0/inboxes", { timout: 5_000 });
    // @ts-expect-error the throwing style always parses JSON
    void inbox.get("/v0/inboxes", { parseAs: "text" });
  });
});

describe("result style", () => {
  it("narrows data and error like openapi-fetch", async () => {
    const { data, error, response } = await inbox.GET("/v0/inboxes/{inbox_id}", { params: { path: { inbox_id } } });
    expectTypeOf(response).toEqualTypeOf<Response>();
    if (error) {
      expectTypeOf(error).toEqualTypeOf<ErrorResponse>();
      expectTypeOf(data).toEqualTypeOf<undefined>();
    } else {
      expectTypeOf(data).toEqualTypeOf<Inbox>();
    }
  });

  it("takes the method as an argument with request()", async () => {
    const { data } = await inbox.request("get", "/v0/inboxes/{inbox_id}", { params: { path: { inbox_id } } });
    expectTypeOf(data).toEqualTypeOf<Inbox | undefined>();
  });

  it("changes the body type with parseAs, as openapi-fetch does", async () => {
    const { data } = await inbox.GET("/v0/inboxes", { parseAs: "text" });
    expectTypeOf(data).toEqualTypeOf<string | undefined>();
  });

  it("requires the same params", () => {
    // @ts-expect-error the init with params.path.inbox_id is required
    void inbox.GET("/v0/inboxes/{inbox_id}");
    // @ts-expect-error no such path for PUT
    void inbox.PUT("/v0/inboxes");
    // @ts-expect-error no such path for PUT, whatever the init
    void inbox.PUT("/v0/inboxes", {});
  });
});

describe("paginate", () => {
  it("yields the item type of each list", async () => {
    for await (const item of inbox.paginate("/v0/inboxes")) {
      expectTypeOf(item).toEqualTypeOf<Inbox>();
    }
    for await (const item of inbox.paginate("/v0/inboxes/{inbox_id}/messages", { params: { path: { inbox_id } } })) {
      expectTypeOf(item).toEqualTypeOf<MessageItem>();
    }
    expectTypeOf(inbox.paginate("/v0/inboxes/{inbox_id}/threads", { params: { path: { inbox_id } } })).toEqualTypeOf<
      Paginator<import("./index.js").ListThreadsResponse, ThreadItem>
    >();
    expectTypeOf(inbox.paginate("/v0/webhooks").firstPage())
      .resolves.toHaveProperty("webhooks")
      .toEqualTypeOf<Webhook[]>();
  });

  it("accepts only list paths", () => {
    // @ts-expect-error an inbox is not a list
    void inbox.paginate("/v0/inboxes/{inbox_id}", { params: { path: { inbox_id } } });
    // @ts-expect-error a thread is not a list
    void inbox.paginate("/v0/inboxes/{inbox_id}/threads/{thread_id}", {
      params: { path: { inbox_id, thread_id: "t" } },
    });
    // @ts-expect-error path params are still required
    void inbox.paginate("/v0/inboxes/{inbox_id}/messages");
  });
});

describe("errors", () => {
  it("narrows body to the inbox envelope where the class guarantees it", () => {
    const error: unknown = undefined;
    if (error instanceof NotFoundError) {
      expectTypeOf(error.body).toEqualTypeOf<ErrorResponse>();
      expectTypeOf(error.service).toEqualTypeOf<"inbox">();
      expectTypeOf(error.status).toEqualTypeOf<number>();
      expectTypeOf(error.requestId).toEqualTypeOf<string | null>();
    }
    if (error instanceof BadRequestError || error instanceof AuthenticationError) {
      expectTypeOf(error.body).toEqualTypeOf<ErrorResponse>();
    }
    if (error instanceof ConflictError || error instanceof PayloadTooLargeError) {
      expectTypeOf(error.body).toEqualTypeOf<ErrorResponse>();
    }
  });

  it("narrows body to the inbox envelope or undefined where a proxy may have answered", () => {
    const error: unknown = undefined;
    if (error instanceof RateLimitError) {
      expectTypeOf(error.body).toEqualTypeOf<ErrorResponse | undefined>();
      expectTypeOf(error.retryAfter).toEqualTypeOf<number | null>();
    }
    if (error instanceof InternalServerError) {
      expectTypeOf(error.body).toEqualTypeOf<ErrorResponse | undefined>();
    }
    if (error instanceof APIError) {
      expectTypeOf(error.body).toEqualTypeOf<ErrorResponse | undefined>();
      expectTypeOf(error.rawBody).toEqualTypeOf<unknown>();
      expectTypeOf(error.code).toEqualTypeOf<string | undefined>();
      expectTypeOf(error.service).toEqualTypeOf<"inbox">();
    }
  });

  it("makes every class an APIError and a PigeonholeError", () => {
    expectTypeOf<NotFoundError>().toExtend<APIError>();
    expectTypeOf<RateLimitError>().toExtend<APIError>();
    expectTypeOf<InternalServerError>().toExtend<APIError>();
    expectTypeOf<APIError>().toExtend<PigeonholeError>();
  });
});

describe("withOptions", () => {
  it("returns a client of the same type", () => {
    expectTypeOf(inbox.withOptions({ timeout: 1_000 })).toEqualTypeOf(inbox);
  });
});

describe("verifyWebhook", () => {
  it("returns the typed event union", () => {
    expectTypeOf(verifyWebhook("{}", new Headers(), "whsec_x")).resolves.toEqualTypeOf<WebhookEvent>();
  });
});
