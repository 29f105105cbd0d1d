import { fakeFetch } from "@pigeonhole/fake-fetch";
import { describe, expect, it } from "vitest";
import { boardError, boardErrors, mailError, mailErrors } from "../test/two-services.js";
import { createApiClient } from "./client.js";
import { APIError, PigeonholeError } from "./errors.js";
import { tokenCursor } from "./list-pages.js";

const answer = (status: number, headers: Record<string, string> = {}) => new Response(null, { status, headers });

describe("fromResponse", () => {
  const { fromResponse } = mailErrors;
  const envelope = mailError("SOME_CODE", "Something");

  it.each([
    [400, "BadRequestError", mailErrors.BadRequestError],
    [401, "AuthenticationError", mailErrors.AuthenticationError],
    [403, "PermissionDeniedError", mailErrors.PermissionDeniedError],
    [404, "NotFoundError", mailErrors.NotFoundError],
    [409, "ConflictError", mailErrors.ConflictError],
    [413, "PayloadTooLargeError", mailErrors.PayloadTooLargeError],
    [429, "RateLimitError", mailErrors.RateLimitError],
    [500, "InternalServerError", mailErrors.InternalServerError],
    [503, "InternalServerError", mailErrors.InternalServerError],
    [402, "APIError", mailErrors.APIError],
    [405, "APIError", mailErrors.APIError],
    [302, "APIError", mailErrors.APIError],
  ] as const)("gives a %i with the envelope the class %s, with the envelope as body", (status, name, Class) => {
    const error = fromResponse(answer(status), envelope);
    expect(error.constructor).toBe(Class);
    expect(error).toBeInstanceOf(mailErrors.APIError);
    expect(error).toBeInstanceOf(APIError);
    expect(error).toBeInstanceOf(PigeonholeError);
    expect(error.name).toBe(name);
    expect(error.service).toBe("mail");
    expect(error.status).toBe(status);
    expect(error.body).toBe(envelope);
    expect(error.rawBody).toBe(envelope);
    expect(error.code).toBe("SOME_CODE");
  });

  it.each([
    [400, "a gateway's text", "Bad Request"],
    [404, "another service's envelope", boardError("NOT_FOUND", "No such post")],
    [409, "an empty body", undefined],
    [413, "a proxy's page", "<html><body>413 Request Entity Too Large</body></html>"],
    [401, "a JSON body of another shape", { message: "Unauthorized" }],
    [403, "a proxy's text", "Forbidden"],
  ] as const)("gives a %i with %s the plain APIError class, without a body", (status, _what, body) => {
    const error = fromResponse(answer(status), body);
    expect(error.constructor).toBe(mailErrors.APIError);
    expect(error.name).toBe("APIError");
    expect(error.status).toBe(status);
    expect(error.body).toBeUndefined();
    expect(error.rawBody).toBe(body);
    expect(error.code).toBeUndefined();
  });

  it("keeps the classes of 429 and 5xx without the envelope, since proxies send them too", () => {
    const limited = fromResponse(answer(429, { "retry-after": "7" }), "Too Many Requests");
    expect(limited).toBeInstanceOf(mailErrors.RateLimitError);
    expect(limited.body).toBeUndefined();
    expect((limited as InstanceType<typeof mailErrors.RateLimitError>).retryAfter).toBe(7);
    const gateway = fromResponse(answer(502), "<html>Bad Gateway</html>");
    expect(gateway).toBeInstanceOf(mailErrors.InternalServerError);
    expect(gateway.body).toBeUndefined();
    expect(gateway.message).toBe("502 <html>Bad Gateway</html>");
  });

  it("keeps the headers and request id", () => {
    const error = fromResponse(answer(404, { "x-request-id": "req_123" }), envelope);
    expect(error.requestId).toBe("req_123");
    expect(error.headers.get("x-request-id")).toBe("req_123");
    expect(fromResponse(answer(500), undefined).requestId).toBeNull();
  });
});

describe("messages", () => {
  const messageOf = (errors: typeof mailErrors | typeof boardErrors, body: unknown, status = 400) =>
    errors.fromResponse(answer(status, { "x-request-id": "req_7" }), body).message;

  it("read what the service's definition summarises: code, message, field", () => {
    expect(messageOf(mailErrors, mailError("INVALID_EMAIL", "to is not an address", "to"))).toBe(
      "400 INVALID_EMAIL: to is not an address (field: to) (request req_7)",
    );
  });

  it("read a hint", () => {
    expect(messageOf(boardErrors, boardError("NOT_FOUND", "Post not found", "List posts."), 404)).toBe(
      "404 NOT_FOUND: Post not found (hint: List posts.) (request req_7)",
    );
  });

  it("read only the message of a body in another shape, never a code", () => {
    expect(messageOf(mailErrors, boardError("NOT_FOUND", "Post not found"))).toBe("400 status code (request req_7)");
    expect(messageOf(mailErrors, { message: "bad subject", code: "X" })).toBe("400 bad subject (request req_7)");
  });

  it("keep a text body on one line, cut to a readable length", () => {
    expect(messageOf(mailErrors, "Bad   gateway\n\n")).toBe("400 Bad gateway (request req_7)");
    expect(mailErrors.fromResponse(answer(400), "x".repeat(500)).message).toHaveLength(4 + 200);
  });

  it("keep the envelope's message on one line", () => {
    expect(messageOf(mailErrors, mailError("X", "line one\nline two\n\n  three"))).toBe(
      "400 X: line one line two three (request req_7)",
    );
  });

  it("fall back to the status when the body says nothing useful", () => {
    expect(mailErrors.fromResponse(answer(400), undefined).message).toBe("400 status code");
    expect(mailErrors.fromResponse(answer(400), "").message).toBe("400 status code");
    expect(mailErrors.fromResponse(answer(400), [{ message: "in an array" }]).message).toBe("400 status code");
  });

  it("can be given", () => {
    expect(new mailErrors.APIError(400, undefined, new Headers(), "custom").message).toBe("custom");
  });
});

describe("constructors", () => {
  it("build an error from a status and a body, recognising the envelope", () => {
    const body = mailError("NOT_FOUND", "No such inbox");
    const error = new mailErrors.NotFoundError(404, body);
    expect(error.body).toBe(body);
    expect(error.code).toBe("NOT_FOUND");
    expect(new mailErrors.InternalServerError(500, "boom").body).toBeUndefined();
  });

  it("refuse a body that is not the envelope for a class that always carries it", () => {
    const foreign = boardError("NOT_FOUND", "No post") as unknown as ReturnType<typeof mailError>;
    expect(() => new mailErrors.NotFoundError(404, foreign)).toThrow(TypeError);
  });

  it("read retryAfter from retry-after-ms, Retry-After seconds or an HTTP-date, or give null", () => {
    const { RateLimitError } = mailErrors;
    expect(new RateLimitError(429, undefined, new Headers({ "retry-after-ms": "250" })).retryAfter).toBe(0.25);
    expect(new RateLimitError(429, undefined, new Headers({ "retry-after": "1.5" })).retryAfter).toBe(1.5);
    const date = new Date(Date.now() + 10_000).toUTCString();
    const fromDate = new RateLimitError(429, undefined, new Headers({ "retry-after": date })).retryAfter;
    expect(fromDate).toBeGreaterThan(8);
    expect(fromDate).toBeLessThanOrEqual(10);
    expect(new RateLimitError(429, undefined).retryAfter).toBeNull();
    expect(new RateLimitError(429, undefined, new Headers({ "retry-after": "later" })).retryAfter).toBeNull();
  });
});

describe("two services", () => {
  // Each service's 404 as its client throws it, from a real Response with the service's envelope.
  const notFoundOf = async (errors: typeof mailErrors | typeof boardErrors, body: unknown) => {
    // One operation, in the shape openapi-call-table generates.
    type calls = {
      get: {
        "/things/{id}": {
          operation: unknown;
          init: { params: { path: { id: string } }; body?: never };
          required: true;
          data: { id: string };
          error: unknown;
          item: never;
          download: false;
        };
      };
      put: Record<never, never>;
      post: Record<never, never>;
      patch: Record<never, never>;
      delete: Record<never, never>;
    };
    const client = createApiClient<calls, unknown>(
      {
        factory: "createClient",
        apiKeyEnv: "KEY",
        baseUrlEnv: "URL",
        defaultBaseUrl: "http://127.0.0.1:4999",
        pageCursor: tokenCursor,
        errors,
      },
      { apiKey: "k", maxRetries: 0, fetch: fakeFetch([], () => Response.json(body, { status: 404 })).fetch },
    );
    return client.get("/things/{id}", { params: { path: { id: "missing" } } }).catch((error: unknown) => error);
  };

  it("never share an error class", async () => {
    const mailMissing = await notFoundOf(mailErrors, mailError("NOT_FOUND", "No such inbox"));
    const boardMissing = await notFoundOf(boardErrors, boardError("NOT_FOUND", "No such post"));
    expect(mailMissing).toBeInstanceOf(mailErrors.NotFoundError);
    expect(boardMissing).toBeInstanceOf(boardErrors.NotFoundError);
    expect(boardMissing).not.toBeInstanceOf(mailErrors.NotFoundError);
    expect(boardMissing).not.toBeInstanceOf(mailErrors.APIError);
    expect(mailMissing).not.toBeInstanceOf(boardErrors.NotFoundError);
    expect(mailMissing).not.toBeInstanceOf(boardErrors.APIError);
    for (const error of [mailMissing, boardMissing]) {
      expect(error).toBeInstanceOf(APIError);
      expect(error).toBeInstanceOf(PigeonholeError);
    }
  });

  it("type a body as an envelope only after recognising it", async () => {
    const mailMissing = await notFoundOf(mailErrors, mailError("NOT_FOUND", "No such inbox"));
    if (!(mailMissing instanceof mailErrors.NotFoundError)) {
      throw new Error("expected the mail service's NotFoundError");
    }
    expect(mailMissing.body.error.details.code).toBe("NOT_FOUND");
    // The other service's envelope reaching this client (a base URL pointing at the wrong service) is no envelope.
    const misrouted = await notFoundOf(mailErrors, boardError("NOT_FOUND", "No such post"));
    expect(misrouted).not.toBeInstanceOf(mailErrors.NotFoundError);
    expect(misrouted).toMatchObject({ name: "APIError", status: 404, body: undefined });
  });
});
