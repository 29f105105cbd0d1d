import { Agent, request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestServer } from "../support/test-server.ts";
import { expectData, startTestServer } from "../support/test-server.ts";

// Answers given before a request's body is read to its end (a refused key, a wrong method or path, a body past its
// limit, a limit reached) must leave the connection usable, or say `Connection: close`: a client that keeps a
// connection alive sends its next request on it, and a connection the server then drops loses that request. Each case
// sends its request with a body on a kept-alive connection (one socket), then an ordinary request on the same agent,
// which must be answered. The server trusts 127.0.0.1 as a proxy, so that `X-Forwarded-For` names the client addresses
// the test plays, each with its own limits.

let t: TestServer;
let webhookId: string;
beforeAll(async () => {
  t = await startTestServer({
    limits: { forumRegistrationsPerHour: 1, authFailuresPerMinute: 1 },
    trustedProxies: ["127.0.0.1"],
  });
  webhookId = expectData(await t.inbox.POST("/v0/webhooks", { body: { url: "https://example.com/reuse" } })).webhook_id;
});
afterAll(async () => {
  await t.server.close();
});

interface Exchange {
  service: "inbox" | "forum";
  method: string;
  path: string;
  key?: "own" | "bad";
  /** The body, sent with its Content-Length; or as these chunks, with `Transfer-Encoding: chunked`. */
  body?: string | string[];
  from?: string;
}

interface Answer {
  status: number;
  connection: string | undefined;
}

function send(agent: Agent, exchange: Exchange): Promise<Answer> {
  const address = t.server[exchange.service];
  const headers: Record<string, string> = { "x-forwarded-for": exchange.from ?? "198.51.100.250" };
  if (exchange.key !== undefined) {
    headers.authorization = `Bearer ${exchange.key === "own" ? address.apiKey : "pk_never_issued_0000000000000000"}`;
  }
  if (exchange.body !== undefined) {
    headers["content-type"] = "application/json";
    if (typeof exchange.body === "string") {
      headers["content-length"] = String(Buffer.byteLength(exchange.body));
    }
  }
  return new Promise((resolve, reject) => {
    const sent = request(`${address.url}${exchange.path}`, { method: exchange.method, agent, headers }, (response) => {
      response.resume();
      response.on("end", () => resolve({ status: response.statusCode ?? 0, connection: response.headers.connection }));
    });
    // Once answered, an error writing the rest of a refused body is no failure of the answer.
    sent.on("error", reject);
    for (const chunk of Array.isArray(exchange.body) ? exchange.body : [exchange.body ?? ""]) {
      sent.write(chunk);
    }
    sent.end();
  });
}

/** A JSON body of `count` chunks of 64 KiB. */
const chunked = (count: number) => [
  `{"content":"`,
  ...Array.from({ length: count }, () => "x".repeat(64 * 1024)),
  `"}`,
];

const cases: [string, () => Exchange, number][] = [
  ["401 without a key", () => ({ service: "inbox", method: "POST", path: "/v0/inboxes", body: "{}" }), 401],
  [
    "429 past the failed authentications of an address",
    () => ({ service: "inbox", method: "POST", path: "/v0/inboxes", key: "bad", body: "{}", from: "203.0.113.9" }),
    429,
  ],
  [
    "405 on a path ending in a word",
    () => ({ service: "inbox", method: "PUT", path: "/v0/inboxes", key: "own", body: "{}" }),
    405,
  ],
  [
    "405 on a path ending in a parameter",
    () => ({ service: "inbox", method: "PUT", path: "/v0/inboxes/a@pigeonhole.test", key: "own", body: "{}" }),
    405,
  ],
  [
    "405 on the keyless download route",
    () => ({ service: "inbox", method: "PATCH", path: "/v0/downloads/token", key: "own", body: "{}" }),
    405,
  ],
  ["404 for no route", () => ({ service: "inbox", method: "PATCH", path: "/v0/nothing", key: "own", body: "{}" }), 404],
  [
    "404 for a missing id, from a handler that reads no body",
    () => ({ service: "inbox", method: "DELETE", path: "/v0/webhooks/missing", key: "own", body: "{}" }),
    404,
  ],
  [
    "204 from a handler that reads no body",
    () => ({ service: "inbox", method: "DELETE", path: `/v0/webhooks/${webhookId}`, key: "own", body: '{"a":1}' }),
    204,
  ],
  [
    "400 for a path parameter",
    () => ({ service: "inbox", method: "PATCH", path: "/v0/inboxes/%00", key: "own", body: "{}" }),
    400,
  ],
  [
    "413 by Content-Length",
    () => ({ service: "forum", method: "POST", path: "/api/v1/posts", key: "own", body: "x".repeat(1024 * 1024 + 1) }),
    413,
  ],
  [
    "413 while a chunked body streams",
    () => ({ service: "forum", method: "POST", path: "/api/v1/posts", key: "own", body: chunked(40) }),
    413,
  ],
  [
    "429 past the registrations of an address",
    () => ({
      service: "forum",
      method: "POST",
      path: "/api/v1/agents/register",
      body: '{"name":"second-agent"}',
      from: "203.0.113.10",
    }),
    429,
  ],
];

describe("a connection kept alive", () => {
  it.each(cases.map((each, index) => [...each, index] as const))(
    "answers the next request after a %s",
    async (_name, first, status, index) => {
      // Each case from an address of its own: a refusal of one address's key must not limit another case.
      const exchange = { from: `198.51.100.${index + 1}`, ...first() };
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      try {
        // An address's first registration or failed authentication uses up its limit of one.
        if (status === 429 && exchange.key === "bad") {
          expect((await send(agent, exchange)).status).toBe(401);
        } else if (status === 429) {
          expect((await send(agent, { ...exchange, body: '{"name":"first-agent"}' })).status).toBe(201);
        }
        const answer = await send(agent, exchange);
        expect(answer.status).toBe(status);
        const next = await send(agent, {
          service: exchange.service,
          method: "GET",
          path: "/health",
          from: exchange.from,
        });
        expect(next.status).toBe(200);
      } finally {
        agent.destroy();
      }
    },
  );
});
