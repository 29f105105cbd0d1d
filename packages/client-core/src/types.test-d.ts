import { describe, expectTypeOf, it } from "vitest";
import { mailErrors } from "../test/two-services.js";
import {
  type APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  createTransport,
  type OperationsWithHeader,
  type Paginator,
  type PigeonholeError,
  paginate,
  type Transport,
  unwrap,
} from "./index.js";

interface Inbox {
  inbox_id: string;
}
interface ErrorResponse {
  name: string;
  message: string;
}
// The shape of openapi-fetch 0.17's FetchResponse union.
type FetchResponse<T, E> =
  | { data: T; error?: never; response: Response }
  | { data?: never; error: E; response: Response };

declare const listResult: Promise<FetchResponse<{ inboxes: Inbox[]; next_page_token?: string }, ErrorResponse>>;
declare const deleteResult: Promise<FetchResponse<undefined, ErrorResponse>>;

describe("unwrap", () => {
  it("resolves to the success data type, not optional", () => {
    expectTypeOf(unwrap(listResult, mailErrors.fromResponse)).toEqualTypeOf<
      Promise<{ inboxes: Inbox[]; next_page_token?: string }>
    >();
  });

  it("resolves to undefined for a no-content response", () => {
    expectTypeOf(unwrap(deleteResult, mailErrors.fromResponse)).toEqualTypeOf<Promise<undefined>>();
  });

  it("accepts a plain result", () => {
    expectTypeOf(unwrap({ data: 1, response: new Response() }, mailErrors.fromResponse)).toEqualTypeOf<
      Promise<number>
    >();
  });
});

describe("paginate", () => {
  const paginator = paginate({
    start: undefined,
    fetchPage: async (_token: string | undefined) => ({
      inboxes: [] as Inbox[],
      next_page_token: "t" as string | null,
    }),
    items: (page) => page.inboxes,
    next: (page) => page.next_page_token,
  });

  it("yields TItem and pages of TPage", async () => {
    expectTypeOf(paginator).toEqualTypeOf<Paginator<{ inboxes: Inbox[]; next_page_token: string | null }, Inbox>>();
    for await (const inbox of paginator) {
      expectTypeOf(inbox).toEqualTypeOf<Inbox>();
    }
    for await (const page of paginator.pages()) {
      expectTypeOf(page.inboxes).toEqualTypeOf<Inbox[]>();
    }
    expectTypeOf(paginator.toArray(5)).toEqualTypeOf<Promise<Inbox[]>>();
    expectTypeOf(paginator.firstPage()).resolves.toHaveProperty("next_page_token");
  });

  it("checks the cursor type between next and fetchPage", () => {
    paginate({
      start: 0,
      fetchPage: async (offset: number | undefined) => ({ posts: [offset], next_offset: 1 }),
      items: (page) => page.posts,
      // @ts-expect-error a string cursor does not fit fetchPage's number offset
      next: () => "x",
    });
  });
});

describe("errors", () => {
  it("narrows with instanceof", () => {
    const caught: unknown = undefined;
    if (caught instanceof APIConnectionTimeoutError) {
      expectTypeOf(caught).toExtend<APIConnectionError>();
      expectTypeOf(caught).toExtend<PigeonholeError>();
      expectTypeOf(caught).not.toHaveProperty("status");
    }
    // Without APIError's typed Symbol.hasInstance this would be `any`.
    if (caught instanceof APIError) {
      expectTypeOf(caught).toEqualTypeOf<APIError<unknown>>();
      expectTypeOf(caught.body).toEqualTypeOf<unknown>();
      expectTypeOf(caught.requestId).toEqualTypeOf<string | null>();
      expectTypeOf(caught.status).toEqualTypeOf<number>();
      expectTypeOf(caught.code).toEqualTypeOf<string | undefined>();
    }
  });
});

describe("transport", () => {
  it("fits openapi-fetch's fetch option", () => {
    expectTypeOf(createTransport()).toEqualTypeOf<Transport>();
    expectTypeOf(createTransport()).toExtend<(input: Request) => Promise<Response>>();
    createTransport({ fetch: globalThis.fetch });
  });
});

describe("OperationsWithHeader", () => {
  type Keyed = { parameters: { header?: { "Idempotency-Key"?: string }; path: { id: string } } };
  type Plain = { parameters: { header?: never; query?: { limit?: number } } };
  interface paths {
    "/v1/things": { get: Plain; post: Keyed; put?: never };
    "/v1/things/{id}": { get: Plain; put: Keyed; delete: { parameters: { header: { "X-Other": string } } } };
  }

  it("names the operations that declare the header, by method and spec path", () => {
    expectTypeOf<OperationsWithHeader<paths, "Idempotency-Key">>().toEqualTypeOf<
      "POST /v1/things" | "PUT /v1/things/{id}"
    >();
    expectTypeOf<OperationsWithHeader<paths, "X-Other">>().toEqualTypeOf<"DELETE /v1/things/{id}">();
    expectTypeOf<OperationsWithHeader<paths, "X-Missing">>().toBeNever();
  });
});
