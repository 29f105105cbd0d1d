import { describe, expect, it } from "vitest";
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  InternalServerError,
  NotFoundError,
  PayloadTooLargeError,
  PigeonholeError,
  RateLimitError,
} from "./errors.js";

const respond = (status: number, headers: Record<string, string> = {}) => new Response(null, { status, headers });

describe("APIError.from", () => {
  it.each([
    [400, "BadRequestError", BadRequestError],
    [401, "AuthenticationError", AuthenticationError],
    [403, "APIError", APIError],
    [404, "NotFoundError", NotFoundError],
    [409, "ConflictError", ConflictError],
    [413, "PayloadTooLargeError", PayloadTooLargeError],
    [422, "APIError", APIError],
    [429, "RateLimitError", RateLimitError],
    [500, "InternalServerError", InternalServerError],
    [503, "InternalServerError", InternalServerError],
    [418, "APIError", APIError],
    [302, "APIError", APIError],
  ] as const)("maps %i to %s", (status, name, Class) => {
    const error = APIError.from(respond(status), { message: "nope" });
    expect(error).toBeInstanceOf(Class);
    expect(error).toBeInstanceOf(APIError);
    expect(error).toBeInstanceOf(PigeonholeError);
    expect(error).toBeInstanceOf(Error);
    expect(error.constructor).toBe(Class);
    expect(error.name).toBe(name);
    expect(error.status).toBe(status);
    expect(String(error)).toBe(`${name}: ${status} nope`);
  });

  it("keeps the body, headers and request id", () => {
    const body = { name: "NotFoundError", code: "not_found", message: "Inbox not found" };
    const error = APIError.from(respond(404, { "x-request-id": "req_123" }), body);
    expect(error.body).toBe(body);
    expect(error.requestId).toBe("req_123");
    expect(error.headers.get("x-request-id")).toBe("req_123");
    expect(error.message).toBe("404 not_found: Inbox not found (request req_123)");
    expect(error.code).toBe("not_found");
  });

  it("has a null request id when the header is missing", () => {
    expect(APIError.from(respond(500), undefined).requestId).toBeNull();
  });
});

describe("instanceof", () => {
  it("tells the subclasses apart and rejects non-errors", () => {
    const notFound = APIError.from(respond(404), undefined);
    expect(notFound instanceof NotFoundError).toBe(true);
    expect(notFound instanceof RateLimitError).toBe(false);
    expect(new APIError(404, undefined) instanceof NotFoundError).toBe(false);
    expect(new Error("x") instanceof APIError).toBe(false);
    expect((null as unknown) instanceof APIError).toBe(false);
    expect({ status: 404 } instanceof APIError).toBe(false);
  });
});

describe("APIError message", () => {
  const messageOf = (body: unknown) => APIError.from(respond(400), body).message;

  it("reads the inbox envelope: code, message, field", () => {
    const body = {
      error: {
        type: "validation_error",
        message: "to is not an address",
        details: { field: "to", code: "INVALID_EMAIL" },
      },
    };
    const error = APIError.from(respond(400, { "x-request-id": "req_7" }), body);
    expect(error.message).toBe("400 INVALID_EMAIL: to is not an address (field: to) (request req_7)");
    expect(error.code).toBe("INVALID_EMAIL");
  });

  it("falls back to the inbox error type when there is no detail code", () => {
    const error = APIError.from(respond(500), { error: { type: "internal_error", message: "boom", details: null } });
    expect(error.message).toBe("500 internal_error: boom");
    expect(error.code).toBe("internal_error");
  });

  it("reads the forum envelope: code, message, hint", () => {
    const body = { success: false, error: "Post not found", code: "NOT_FOUND", hint: "List posts to find an id." };
    const error = APIError.from(respond(404), body);
    expect(error.message).toBe("404 NOT_FOUND: Post not found (hint: List posts to find an id.)");
    expect(error.code).toBe("NOT_FOUND");
  });

  it("uses message or error from a generic body", () => {
    expect(messageOf({ message: "bad subject" })).toBe("400 bad subject");
    expect(messageOf({ error: "bad subject" })).toBe("400 bad subject");
    expect(messageOf({ error: { message: "bad subject" } })).toBe("400 bad subject");
  });

  it("keeps the message on one line", () => {
    const body = { error: { message: "line one\nline two\n\n  three", details: { code: "X" } } };
    expect(messageOf(body)).toBe("400 X: line one line two three");
  });

  it("uses a short text body, on one line", () => {
    expect(messageOf("Bad   gateway\n\n")).toBe("400 Bad gateway");
    expect(messageOf("x".repeat(500))).toHaveLength(4 + 200);
  });

  it("falls back to the status when the body says nothing useful", () => {
    expect(messageOf(undefined)).toBe("400 status code");
    expect(messageOf("")).toBe("400 status code");
    expect(messageOf({ message: 42 })).toBe("400 status code");
    expect(messageOf([{ message: "in an array" }])).toBe("400 status code");
  });

  it("accepts an explicit message", () => {
    expect(new APIError(400, undefined, new Headers(), "custom").message).toBe("custom");
  });
});

describe("RateLimitError.retryAfter", () => {
  it("reads Retry-After seconds", () => {
    const error = APIError.from(respond(429, { "retry-after": "1.5" }), undefined);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfter).toBe(1.5);
  });

  it("reads retry-after-ms", () => {
    const error = new RateLimitError(429, undefined, new Headers({ "retry-after-ms": "250" }));
    expect(error.retryAfter).toBe(0.25);
  });

  it("reads an HTTP-date", () => {
    const date = new Date(Date.now() + 10_000).toUTCString();
    const error = new RateLimitError(429, undefined, new Headers({ "retry-after": date }));
    expect(error.retryAfter).toBeGreaterThan(8);
    expect(error.retryAfter).toBeLessThanOrEqual(10);
  });

  it("is null when absent or invalid", () => {
    expect(new RateLimitError(429, undefined, new Headers()).retryAfter).toBeNull();
    expect(new RateLimitError(429, undefined, new Headers({ "retry-after": "later" })).retryAfter).toBeNull();
  });
});

describe("non-HTTP errors", () => {
  it("APIConnectionError keeps its cause", () => {
    const cause = new TypeError("fetch failed");
    const error = new APIConnectionError({ cause });
    expect(error.cause).toBe(cause);
    expect(error.name).toBe("APIConnectionError");
    expect(error.message).toBe("Connection error.");
    expect(error).toBeInstanceOf(PigeonholeError);
    expect(error).not.toBeInstanceOf(APIError);
  });

  it("APIConnectionTimeoutError is an APIConnectionError", () => {
    const error = new APIConnectionTimeoutError();
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error.name).toBe("APIConnectionTimeoutError");
    expect(error.message).toBe("Request timed out.");
    expect("cause" in error).toBe(false);
  });

  it("APIUserAbortError is its own kind", () => {
    const error = new APIUserAbortError({ cause: "stop" });
    expect(error.name).toBe("APIUserAbortError");
    expect(error.cause).toBe("stop");
    expect(error).toBeInstanceOf(PigeonholeError);
    expect(error).not.toBeInstanceOf(APIConnectionError);
  });
});
