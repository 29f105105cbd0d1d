/// <reference types="node" />
// Node's types for this file only: it opens a real socket and prints errors as Node does. The package itself uses
// no Node API, which its program without `@types/node` keeps honest.
import { once } from "node:events";
import { createServer } from "node:net";
import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { mailError, mailErrors } from "../test/two-services.js";
import { connectionFailureMessage } from "./connection-failure.js";
import { APIConnectionError } from "./errors.js";
import { createTransport } from "./transport.js";

/** A port of 127.0.0.1 that nothing listens on: taken from the system, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer().listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = server.address();
  if (address === null || typeof address === "string") {
    throw new Error("The server has no port");
  }
  server.close();
  await once(server, "close");
  return address.port;
}

describe("a request that gets no answer", () => {
  it("names the system error, the address it tried and the request, and keeps the cause", async () => {
    const port = await closedPort();
    const transport = createTransport({ maxRetries: 0 });
    const error = await transport(new Request(`http://127.0.0.1:${port}/v0/inboxes?limit=5`)).then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(error).toBeInstanceOf(APIConnectionError);
    const { message, cause } = error as APIConnectionError;
    expect(message).toBe(`Connection error: ECONNREFUSED 127.0.0.1:${port} (GET http://127.0.0.1:${port}/v0/inboxes)`);
    // Node's own error stays reachable: `fetch failed`, caused by the refused connect.
    expect(cause).toBeInstanceOf(TypeError);
    expect((cause as Error).cause).toMatchObject({ code: "ECONNREFUSED", port });
  });

  it("names a name that does not resolve", () => {
    const lookup = Object.assign(new Error("getaddrinfo ENOTFOUND api.example.invalid"), {
      code: "ENOTFOUND",
      hostname: "api.example.invalid",
    });
    const request = new Request("https://api.example.invalid/api/v1/posts", { method: "POST" });
    expect(connectionFailureMessage(new TypeError("fetch failed", { cause: lookup }), request)).toBe(
      "Connection error: ENOTFOUND api.example.invalid (POST https://api.example.invalid/api/v1/posts)",
    );
  });

  it("names the peer of an AggregateError, as when every address of a name refused", () => {
    const refused = Object.assign(new Error("connect ECONNREFUSED ::1:4010"), {
      code: "ECONNREFUSED",
      address: "::1",
      port: 4010,
    });
    const every = Object.assign(new AggregateError([refused]), { code: "ECONNREFUSED" });
    const request = new Request("http://localhost:4010/v0/inboxes");
    expect(connectionFailureMessage(new TypeError("fetch failed", { cause: every }), request)).toBe(
      "Connection error: ECONNREFUSED ::1:4010 (GET http://localhost:4010/v0/inboxes)",
    );
  });

  it("says what a browser's fetch says when it gives no code", () => {
    const request = new Request("https://api.example.com/v0/inboxes");
    expect(connectionFailureMessage(new TypeError("Failed to fetch"), request)).toBe(
      "Connection error: Failed to fetch (GET https://api.example.com/v0/inboxes)",
    );
  });
});

describe("an error printed with console.log", () => {
  it.each([
    [404, "NotFoundError"],
    [400, "BadRequestError"],
    [402, "APIError"],
    [429, "RateLimitError"],
    [503, "InternalServerError"],
  ])("shows a %i under its public class name, %s", (status, name) => {
    const error = mailErrors.fromResponse(new Response(null, { status }), mailError("SOME_CODE", "Something"));
    // Node prints `Constructor [name]` when the two differ, as they did: `EnvelopeError [NotFoundError]`.
    expect(inspect(error).split("\n")[0]).toBe(`${name}: ${status} SOME_CODE: Something`);
  });
});
