import { describe, expect, it } from "vitest";
import { boardError, boardErrors, mailErrors } from "../test/two-services.js";
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  PigeonholeError,
} from "./errors.js";

describe("APIError", () => {
  it("is the base of every service's error answers", () => {
    const mail = mailErrors.fromResponse(new Response(null, { status: 404 }), undefined);
    const board = boardErrors.fromResponse(new Response(null, { status: 404 }), boardError("NOT_FOUND", "No post"));
    for (const error of [mail, board]) {
      expect(error).toBeInstanceOf(APIError);
      expect(error).toBeInstanceOf(PigeonholeError);
      expect(error).toBeInstanceOf(Error);
    }
  });

  it("matches nothing else", () => {
    expect(new Error("x") instanceof APIError).toBe(false);
    expect(new PigeonholeError("x") instanceof APIError).toBe(false);
    expect((null as unknown) instanceof APIError).toBe(false);
    expect({ status: 404 } instanceof APIError).toBe(false);
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
