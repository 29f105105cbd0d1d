import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { REFUSAL_LINES_PER_SESSION } from "../../src/mail/inbound/smtp-session-log.ts";
import { RawSmtpClient } from "../support/raw-smtp-client.ts";
import type { LoggedLine } from "../support/recording-logger.ts";
import { recordingLogger } from "../support/recording-logger.ts";
import type { TestServer } from "../support/test-server.ts";
import { expectData, startTestServer } from "../support/test-server.ts";

// What clients send that reaches the server's log lines and answers: a request id of their own, the address they
// claim to come from, and floods of SMTP connections and commands. Each is believed only as far as it may be, and
// what it costs in log lines stays bounded.

/** The ids the server makes itself. */
const FRESH_ID = /^req_[0-9a-f]{16}$/;
const CONNECTIONS_PER_ADDRESS = 3;

let t: TestServer;
let logged: LoggedLine[];
beforeAll(async () => {
  const recording = recordingLogger();
  logged = recording.lines;
  t = await startTestServer({
    logger: recording.logger,
    smtpPort: 0,
    smtpConnectionsPerAddress: CONNECTIONS_PER_ADDRESS,
  });
});
afterAll(() => t.server.close());

const withKey = (key: string, headers: Record<string, string> = {}) => ({
  headers: { Authorization: `Bearer ${key}`, ...headers },
});

/** The request line of the answer that carries `requestId`. */
const requestLine = (requestId: string | null) =>
  logged.find((line) => line.msg === "request" && line.request_id === requestId);

/** GET `path` with `headers`, its body read: answers the request id it carries and the status. */
async function get(url: string, init: RequestInit) {
  const response = await fetch(url, init);
  await response.text();
  return { status: response.status, requestId: response.headers.get("x-request-id") };
}

/**
 * Sends `head` (a request line and header lines, CRLF-separated, as given: no client library would send some of
 * them) on a socket of its own, and answers the whole answer as text.
 */
function rawHttp(url: string, head: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    let received = "";
    socket.setEncoding("latin1");
    socket.on("data", (chunk: string) => {
      received += chunk;
    });
    socket.on("error", reject);
    socket.on("close", () => resolve(received));
    socket.setTimeout(10_000, () => socket.destroy(new Error("no answer within 10 s")));
    socket.write(`${head}\r\nConnection: close\r\n\r\n`, "latin1");
  });
}

/** The header section of a raw answer, by lower-case name (repeated names joined as fetch joins them). */
function headersOf(answer: string): Map<string, string> {
  const headers = new Map<string, string>();
  for (const line of answer.split("\r\n\r\n")[0]?.split("\r\n").slice(1) ?? []) {
    const colon = line.indexOf(":");
    const name = line.slice(0, colon).toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers.set(name, headers.has(name) ? `${headers.get(name)}, ${value}` : value);
  }
  return headers;
}

describe("X-Request-Id", () => {
  it("keeps a valid incoming id: the answer carries it and the request's log line names it", async () => {
    for (const id of ["4bf92f3577b34da6a3ce929d0e0e4736", "a1b2-C3D4_e5.f6:7", "x".repeat(128)]) {
      const answer = await get(
        `${t.server.inbox.url}/v0/inboxes`,
        withKey(t.server.inbox.apiKey, { "X-Request-Id": id }),
      );
      expect(answer).toEqual({ status: 200, requestId: id });
      expect(requestLine(id)).toMatchObject({ msg: "request", path: "/v0/inboxes", status: 200 });
    }
  });

  it("replaces one too long or outside letters, digits and -_.: so that nothing else a client wrote is echoed or logged", async () => {
    const hostile = [
      "x".repeat(129),
      'abc"def',
      'x","level":"error","msg":"server compromised',
      "two words",
      "<script>alert(1)</script>",
      "caf\u00e9",
      "a,b",
      "id;rm -rf",
    ];
    for (const id of hostile) {
      const answer = await get(`${t.server.forum.url}/health`, { headers: { "X-Request-Id": id } });
      expect(answer.status, id).toBe(200);
      expect(answer.requestId, id).toMatch(FRESH_ID);
      expect(requestLine(answer.requestId), id).toMatchObject({ service: "forum", path: "/health", status: 200 });
      expect(JSON.stringify(logged), id).not.toContain(JSON.stringify(id).slice(1, -1));
    }
  });

  it("replaces what only a raw client sends: a repeated header, a folded one, control characters", async () => {
    const heads = [
      // Two ids, each valid: together they are one value, "a1, b2", which is not.
      ["GET /health HTTP/1.1", "Host: x", "X-Request-Id: a1", "X-Request-Id: b2"],
      // An obsolete folded line: a header that would continue onto the next line of the log or the answer.
      ["GET /health HTTP/1.1", "Host: x", "X-Request-Id: a1", " Set-Cookie: session=stolen"],
      ["GET /health HTTP/1.1", "Host: x", "X-Request-Id: a1\tSet-Cookie: session=stolen"],
      ["GET /health HTTP/1.1", "Host: x", "X-Request-Id: a1\rSet-Cookie: session=stolen"],
      ["GET /health HTTP/1.1", "Host: x", "X-Request-Id: a1\u0000b"],
    ];
    for (const head of heads) {
      const answer = await rawHttp(t.server.inbox.url, head.join("\r\n"));
      const headers = headersOf(answer);
      expect(headers.has("set-cookie"), head.join(" | ")).toBe(false);
      // Either the server's HTTP parser refuses the request (400, and it reaches no handler), or it is served under a
      // fresh id.
      if (answer.startsWith("HTTP/1.1 400")) {
        expect(headers.has("x-request-id")).toBe(false);
        continue;
      }
      expect(answer, head.join(" | ")).toMatch(/^HTTP\/1\.1 200 /);
      expect(headers.get("x-request-id"), head.join(" | ")).toMatch(FRESH_ID);
      expect(requestLine(headers.get("x-request-id") ?? "")).toMatchObject({ path: "/health", status: 200 });
    }
    expect(JSON.stringify(logged)).not.toContain("stolen");
  });
});

describe("request lines", () => {
  it("name the client's address and the caller, the pod or the agent, never the key", async () => {
    const { pod_id } = expectData(await t.inbox.POST("/v0/inboxes", { body: { username: "logged-pod" } }));
    const inbox = await get(`${t.server.inbox.url}/v0/inboxes`, withKey(t.server.inbox.apiKey));
    expect(requestLine(inbox.requestId)).toMatchObject({ client_address: "127.0.0.1", pod_id });

    const { agent } = expectData(await t.forum.GET("/api/v1/agents/me", {}));
    const forum = await get(`${t.server.forum.url}/api/v1/posts`, withKey(t.server.forum.apiKey));
    expect(requestLine(forum.requestId)).toMatchObject({ client_address: "127.0.0.1", agent_id: agent.id });
    expect(requestLine(forum.requestId)).not.toHaveProperty("pod_id");

    // A key that opens nothing names no caller.
    const refused = await get(`${t.server.inbox.url}/v0/inboxes`, withKey("ph_inbox_notakey"));
    expect(refused.status).toBe(401);
    const line = requestLine(refused.requestId);
    expect(line).toMatchObject({ status: 401, client_address: "127.0.0.1" });
    expect(line).not.toHaveProperty("pod_id");
    expect(line).not.toHaveProperty("agent_id");

    const text = JSON.stringify(logged);
    for (const secret of [t.server.inbox.apiKey, t.server.forum.apiKey, "ph_inbox_notakey"]) {
      expect(text).not.toContain(secret);
    }
  });

  it("believe X-Forwarded-For only from a trusted proxy: a client cannot name itself another address", async () => {
    const forged = await get(`${t.server.inbox.url}/v0/inboxes`, {
      headers: { Authorization: `Bearer ${t.server.inbox.apiKey}`, "X-Forwarded-For": "203.0.113.66" },
    });
    expect(requestLine(forged.requestId)).toMatchObject({ client_address: "127.0.0.1" });
    expect(JSON.stringify(logged)).not.toContain("203.0.113.66");

    const recording = recordingLogger();
    const proxied = await startTestServer({ logger: recording.logger, trustedProxies: ["127.0.0.1"] });
    try {
      const response = await fetch(`${proxied.server.inbox.url}/v0/inboxes`, {
        headers: {
          Authorization: `Bearer ${proxied.server.inbox.apiKey}`,
          "X-Forwarded-For": "198.51.100.1, 203.0.113.7",
        },
      });
      await response.text();
      const line = recording.lines.find(
        (each) => each.msg === "request" && each.request_id === response.headers.get("x-request-id"),
      );
      // The nearest address that is not a trusted proxy: the one the proxy itself saw.
      expect(line).toMatchObject({ client_address: "203.0.113.7" });
    } finally {
      await proxied.server.close();
    }
  });
});

describe("SMTP log lines under a flood", () => {
  const linesOf = (sessionId: unknown) => logged.filter((line) => line.session_id === sessionId);

  it("give a connection refused past the per-address limit one line, whatever their number", async () => {
    const held: RawSmtpClient[] = [];
    const port = t.server.smtp?.port ?? 0;
    try {
      for (let index = 0; index < CONNECTIONS_PER_ADDRESS; index++) {
        const client = await RawSmtpClient.open(port);
        expect(await client.line(0)).toMatch(/^220 /);
        held.push(client);
      }
      const refusedBefore = logged.filter((line) => line.msg === "smtp connection refused").length;
      const linesBefore = logged.length;
      const FLOOD = 20;
      for (let index = 0; index < FLOOD; index++) {
        const client = await RawSmtpClient.open(port);
        expect(await client.line(0)).toMatch(/^421 /);
        await client.closed;
      }
      const refused = logged.filter((line) => line.msg === "smtp connection refused");
      expect(refused.length - refusedBefore).toBe(FLOOD);
      expect(refused.at(-1)).toMatchObject({ client_address: "127.0.0.1", reason: "connections_per_address" });
      // Nothing else: a refused connection has no session to open or close.
      const others = logged.slice(linesBefore).filter((line) => line.msg !== "smtp connection refused");
      expect(others.filter((line) => String(line.msg).startsWith("smtp"))).toEqual([]);
    } finally {
      for (const client of held) {
        client.close();
      }
    }
  });

  it("give one session naming unknown recipients without end a bounded number of lines, the rest counted", async () => {
    const client = await RawSmtpClient.open(t.server.smtp?.port ?? 0);
    try {
      expect(await client.line(0)).toMatch(/^220 /);
      expect(await client.command("EHLO flood.example")).toMatch(/^250 /);
      expect(await client.command("MAIL FROM:<flood@example.org>")).toMatch(/^250 /);
      const RECIPIENTS = 40;
      for (let index = 0; index < RECIPIENTS; index++) {
        expect(await client.command(`RCPT TO:<nobody-${index}@pigeonhole.test>`)).toMatch(/^550 5\.1\.1 /);
      }
      expect(await client.command("QUIT")).toMatch(/^221 /);
      await client.closed;
      const closed = await vi.waitFor(
        () => {
          const line = logged.findLast(
            (each) => each.msg === "smtp session closed" && each.recipients_refused === RECIPIENTS,
          );
          expect(line).toBeDefined();
          return line;
        },
        { timeout: 5_000, interval: 20 },
      );
      const lines = linesOf(closed?.session_id);
      expect(lines.map((line) => line.msg)).toEqual([
        "smtp session opened",
        ...Array.from({ length: REFUSAL_LINES_PER_SESSION }, () => "smtp recipient refused"),
        "smtp session closed",
      ]);
      expect(closed).toMatchObject({
        client_address: "127.0.0.1",
        recipients_refused: RECIPIENTS,
        refusals_not_logged: RECIPIENTS - REFUSAL_LINES_PER_SESSION,
        last_error: expect.stringMatching(/^550 5\.1\.1 /),
      });
    } finally {
      client.close();
    }
  });
});
