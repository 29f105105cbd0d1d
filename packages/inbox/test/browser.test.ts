// The client in a real browser (Debian's Chromium): fetch, AbortSignal, WebCrypto and no Node APIs.
import { createHmac } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { bundlePageScript, launchChromium, watchPageErrors } from "@pigeonhole/browser-testing";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";

const secret = `whsec_${Buffer.from("browser-signing-key").toString("base64")}`;
let server: Server;
let origin: string;
let browser: Browser;
const sends: { key: string | undefined; body: string }[] = [];

const inbox = (n: number) => ({
  pod_id: "p",
  inbox_id: `agent-${n}@pigeonhole.test`,
  display_name: null,
  client_id: null,
  created_at: "2026-11-22T09:30:00.000Z",
  updated_at: "2026-11-22T09:30:00.000Z",
});

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) {
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

beforeAll(async () => {
  const script = await bundlePageScript(join(import.meta.dirname, "browser/page.ts"));

  server = createServer(async (request, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    const body = await readBody(request);
    const json = (status: number, value: unknown, headers: Record<string, string> = {}) => {
      response.writeHead(status, { "content-type": "application/json", "x-request-id": "req_browser", ...headers });
      response.end(JSON.stringify(value));
    };
    if (url.pathname === "/") {
      response.writeHead(200, { "content-type": "text/html" });
      response.end('<!doctype html><title>inbox</title><script type="module" src="/page.js"></script>');
    } else if (url.pathname === "/page.js") {
      response.writeHead(200, { "content-type": "text/javascript" });
      response.end(script);
    } else if (url.pathname === "/favicon.ico") {
      response.writeHead(204).end();
    } else if (request.headers.authorization !== "Bearer browser-key") {
      json(401, {
        error: { type: "authentication_error", message: "Bad key", details: { field: null, code: "INVALID_API_KEY" } },
      });
    } else if (url.pathname === "/v0/inboxes" && url.searchParams.get("limit") === "99") {
      setTimeout(() => json(200, { count: 0, limit: 99, next_page_token: null, inboxes: [] }), 2_000);
    } else if (url.pathname === "/v0/inboxes") {
      const token = url.searchParams.get("page_token");
      json(200, { count: 1, limit: 1, next_page_token: token ? null : "page-2", inboxes: [inbox(token ? 2 : 1)] });
    } else if (url.pathname === "/v0/inboxes/support%40pigeonhole.test/messages" && request.method === "POST") {
      sends.push({ key: request.headers["idempotency-key"] as string | undefined, body });
      if (sends.length === 1) {
        json(
          503,
          { error: { type: "internal_error", message: "busy", details: { field: null, code: "BUSY" } } },
          { "retry-after-ms": "0" },
        );
      } else {
        json(200, { message_id: "<b1@pigeonhole.test>", thread_id: "thd_b1" });
      }
    } else {
      json(404, {
        error: { type: "not_found_error", message: "No such inbox", details: { field: null, code: "NOT_FOUND" } },
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  server?.closeAllConnections();
  server?.close();
});

it("lists, fails typed, retries a send with one key, times out and verifies webhooks in Chromium", async () => {
  const page = await browser.newPage();
  const errors = watchPageErrors(page);
  await page.goto(origin);
  await page.waitForFunction(() => "runChecks" in globalThis);

  const body = JSON.stringify({ type: "event", event_type: "message.sent", event_id: "evt_b", send: {} });
  const timestamp = String(Math.floor(Date.now() / 1000));
  const key = Buffer.from(secret.slice("whsec_".length), "base64");
  const signature = createHmac("sha256", key).update(`msg_b.${timestamp}.${body}`).digest("base64");
  const delivery = {
    body,
    headers: { "webhook-id": "msg_b", "webhook-timestamp": timestamp, "webhook-signature": `v1,${signature}` },
    secret,
  };
  const result = await page.evaluate(
    (input) => (globalThis as unknown as { runChecks: (d: typeof input) => Promise<unknown> }).runChecks(input),
    delivery,
  );

  expect(result).toEqual({
    listed: ["agent-1@pigeonhole.test", "agent-2@pigeonhole.test"],
    missing: "NotFoundError: 404 NOT_FOUND: No such inbox (request req_browser)",
    sent: { message_id: "<b1@pigeonhole.test>", thread_id: "thd_b1" },
    eventType: "message.sent",
    forged: "invalid_signature",
    timedOut: "APIConnectionTimeoutError",
  });
  expect(sends).toHaveLength(2);
  expect(sends[0]?.key).toMatch(/^[0-9a-f-]{36}$/);
  expect(sends[1]).toEqual(sends[0]);
  // Expected noise: Chromium logs the 404 and 503 answers, and reports as aborted the retried 503 (whose body the
  // client cancels) and the timed-out request. Nothing else may appear, and nothing may be thrown uncaught.
  const expected = /status of (404|503)|\/messages \(net::ERR_ABORTED\)|limit=99 \(net::ERR_ABORTED\)/;
  expect(errors.list.filter((line) => !expected.test(line))).toEqual([]);
}, 60_000);
