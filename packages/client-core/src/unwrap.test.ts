import { describe, expect, it } from "vitest";
import { mailError, mailErrors } from "../test/two-services.js";
import { unwrap } from "./unwrap.js";

interface Inbox {
  inbox_id: string;
}
type ErrorResponse = ReturnType<typeof mailError>;
// The union openapi-fetch returns.
type Result<T> =
  | { data: T; error?: never; response: Response }
  | { data?: never; error: ErrorResponse; response: Response };

const ok = <T>(data: T, status = 200): Result<T> => ({ data, response: new Response(null, { status }) });
const failed = (status: number, error: ErrorResponse, headers: Record<string, string> = {}): Result<never> => ({
  error,
  response: new Response(null, { status, headers }),
});
const { fromResponse } = mailErrors;

describe("unwrap", () => {
  it("returns data from a promise", async () => {
    const inbox: Inbox = { inbox_id: "a@pigeonhole.dev" };
    await expect(unwrap(Promise.resolve(ok(inbox)), fromResponse)).resolves.toBe(inbox);
  });

  it("returns data from a plain result", async () => {
    await expect(unwrap(ok([1, 2]), fromResponse)).resolves.toEqual([1, 2]);
  });

  it("returns undefined for 204", async () => {
    const empty = { data: undefined, response: new Response(null, { status: 204 }) };
    await expect(unwrap(empty, fromResponse)).resolves.toBeUndefined();
  });

  it("throws the error built for the answer, with the body and request id", async () => {
    const body = mailError("NOT_FOUND", "Inbox not found");
    const result = Promise.resolve(failed(404, body, { "x-request-id": "req_9" }));
    const error = await unwrap(result, fromResponse).catch((e) => e);
    expect(error).toBeInstanceOf(mailErrors.NotFoundError);
    expect(error.body).toBe(body);
    expect(error.requestId).toBe("req_9");
    expect(error.message).toBe("404 NOT_FOUND: Inbox not found (request req_9)");
  });

  it("throws on a non-ok response even without an error body", async () => {
    const empty = { error: undefined, response: new Response(null, { status: 409 }) };
    const error = await unwrap(empty, fromResponse).catch((e: unknown) => e);
    if (!(error instanceof mailErrors.APIError)) {
      throw new Error("expected an APIError");
    }
    expect(error).not.toBeInstanceOf(mailErrors.ConflictError);
    expect(error.status).toBe(409);
    expect(error.body).toBeUndefined();
  });

  it("throws when error is set even if data is present", async () => {
    const result = { data: 1, error: "broken", response: new Response(null, { status: 500 }) };
    await expect(unwrap(result, fromResponse)).rejects.toBeInstanceOf(mailErrors.InternalServerError);
  });
});
