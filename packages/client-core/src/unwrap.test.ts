import { describe, expect, it } from "vitest";
import { APIError, ConflictError, NotFoundError } from "./errors.js";
import { unwrap } from "./unwrap.js";

interface Inbox {
  inbox_id: string;
}
interface ErrorResponse {
  name: string;
  message: string;
}
// The union openapi-fetch returns.
type Result<T> =
  | { data: T; error?: never; response: Response }
  | { data?: never; error: ErrorResponse; response: Response };

const ok = <T>(data: T, status = 200): Result<T> => ({ data, response: new Response(null, { status }) });
const failed = (status: number, error: ErrorResponse, headers: Record<string, string> = {}): Result<never> => ({
  error,
  response: new Response(null, { status, headers }),
});

describe("unwrap", () => {
  it("returns data from a promise", async () => {
    const inbox: Inbox = { inbox_id: "a@pigeonhole.dev" };
    await expect(unwrap(Promise.resolve(ok(inbox)))).resolves.toBe(inbox);
  });

  it("returns data from a plain result", async () => {
    await expect(unwrap(ok([1, 2]))).resolves.toEqual([1, 2]);
  });

  it("returns undefined for 204", async () => {
    await expect(unwrap({ data: undefined, response: new Response(null, { status: 204 }) })).resolves.toBeUndefined();
  });

  it("throws the typed error with the body and request id", async () => {
    const body = { name: "NotFoundError", message: "Inbox not found" };
    const error = await unwrap(Promise.resolve(failed(404, body, { "x-request-id": "req_9" }))).catch((e) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.body).toBe(body);
    expect(error.requestId).toBe("req_9");
    expect(error.message).toBe("404 Inbox not found (request req_9)");
  });

  it("throws on a non-ok response even without an error body", async () => {
    const error = await unwrap({ error: undefined, response: new Response(null, { status: 409 }) }).catch((e) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect((error as ConflictError).body).toBeUndefined();
  });

  it("throws when error is set even if data is present", async () => {
    const result = { data: 1, error: "broken", response: new Response(null, { status: 500 }) };
    await expect(unwrap(result)).rejects.toBeInstanceOf(APIError);
  });
});
