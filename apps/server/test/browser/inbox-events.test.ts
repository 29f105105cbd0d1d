// The inbox client's live events in a real browser (Debian's Chromium): the page's own WebSocket to the real server
// on 127.0.0.1, and the loop an app's page would write. The page is served from an origin of its own, as an app's is.
import { createServer, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { bundlePageScript, launchChromium, type PageErrors, watchPageErrors } from "@pigeonhole/browser-testing";
import { createInboxClient } from "@pigeonhole/inbox";
import type { Browser, Page, WebSocket as PageSocket } from "playwright-core";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { type Server, startServer } from "../../src/index.ts";
import type { Heard, Listen } from "./inbox-events-page.ts";

/** The page's `globalThis`, as `inbox-events-page.ts` fills it; functions given to `page.evaluate` cast to it. */
type PageGlobals = typeof globalThis & {
  listen(options: Listen): void;
  stop(): Promise<string | null>;
  firstError(baseUrl: string, apiKey: string): Promise<Record<string, unknown>>;
  heard: Heard;
};

const WAIT_MS = 5_000;

let server: Server;
let pageServer: HttpServer;
let browser: Browser;
let page: Page;
let errors: PageErrors;

beforeAll(async () => {
  const [script, started, launched] = await Promise.all([
    bundlePageScript(join(import.meta.dirname, "inbox-events-page.ts")),
    startServer({ database: ":memory:", inboxPort: 0, forumPort: 0, logger: false }),
    launchChromium(),
  ]);
  server = started;
  browser = launched;
  pageServer = createServer((request, response) => {
    if (request.url === "/") {
      response.writeHead(200, { "content-type": "text/html" });
      response.end('<!doctype html><title>events</title><script type="module" src="/page.js"></script>');
    } else if (request.url === "/page.js") {
      response.writeHead(200, { "content-type": "text/javascript" });
      response.end(script);
    } else {
      response.writeHead(204).end();
    }
  });
  await new Promise<void>((resolve) => pageServer.listen(0, "127.0.0.1", resolve));
  page = await browser.newPage();
  errors = watchPageErrors(page);
  await page.goto(`http://127.0.0.1:${(pageServer.address() as AddressInfo).port}`);
  await page.waitForFunction(() => "listen" in globalThis);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  pageServer?.closeAllConnections();
  pageServer?.close();
  await server?.close();
});

afterEach(() => {
  errors.list.length = 0;
});

/** The next socket the page opens, with the frames the server sends it, parsed, in order, from its opening on. */
function nextSocket(on: Page): Promise<{ socket: PageSocket; frames: unknown[] }> {
  return new Promise((resolve) => {
    on.once("websocket", (socket) => {
      const frames: unknown[] = [];
      socket.on("framereceived", ({ payload }) => frames.push(JSON.parse(String(payload))));
      resolve({ socket, frames });
    });
  });
}

it("hears two messages in order with the bodies the server sent, and ends when aborted", async () => {
  const apiKey = await server.createApiKey("inbox");
  const client = createInboxClient({ baseUrl: server.inbox.url, apiKey });
  const from = (await client.post("/v0/inboxes", { body: { username: "sender" } })).inbox_id;
  const to = (await client.post("/v0/inboxes", { body: { username: "watcher" } })).inbox_id;

  const opened = nextSocket(page);
  await page.evaluate((options) => (globalThis as PageGlobals).listen(options), {
    baseUrl: server.inbox.url,
    apiKey,
    inbox_ids: [to],
  });
  const { socket, frames } = await opened;
  expect(new URL(socket.url()).pathname).toBe("/v0/ws");
  // Live events start once the service confirms the subscription: only then are the messages sent.
  await expect
    .poll(() => frames, { timeout: WAIT_MS })
    .toEqual([{ type: "subscribed", event_types: ["message.received"], inbox_ids: [to] }]);

  const sent: string[] = [];
  for (const subject of ["first", "second"]) {
    const answer = await client.post("/v0/inboxes/{inbox_id}/messages", {
      params: { path: { inbox_id: from } },
      body: { to, subject, text: `the ${subject} message` },
    });
    sent.push(answer.message_id);
  }
  await page.waitForFunction(() => (globalThis as PageGlobals).heard.events.length >= 2, undefined, {
    timeout: WAIT_MS,
  });
  const events = await page.evaluate(() => (globalThis as PageGlobals).heard.events);

  expect(events.map((event) => event.event_type)).toEqual(["message.received", "message.received"]);
  const received = events.flatMap((event) => (event.event_type === "message.received" ? [event.message] : []));
  expect(received.map((message) => message.message_id)).toEqual(sent);
  // Each body is the message as the API answers it, and exactly what the server sent over the socket.
  for (const message of received) {
    const stored = await client.get("/v0/inboxes/{inbox_id}/messages/{message_id}", {
      params: { path: { inbox_id: to, message_id: message.message_id } },
    });
    expect(message).toEqual(stored);
  }
  await expect.poll(() => frames.length, { timeout: WAIT_MS }).toBe(3);
  expect(events).toEqual(frames.slice(1));
  expect(new Set(events.map((event) => event.event_id)).size).toBe(2);

  expect(await page.evaluate(() => (globalThis as PageGlobals).stop())).toBe("ended");
  await expect.poll(() => socket.isClosed(), { timeout: WAIT_MS }).toBe(true);
  expect(errors.list).toEqual([]);
});

it("rejects with AuthenticationError when the key is refused", async () => {
  const result = await page.evaluate(({ baseUrl }) => (globalThis as PageGlobals).firstError(baseUrl, "not-a-key"), {
    baseUrl: server.inbox.url,
  });
  expect(result).toEqual({ authentication: true, name: "AuthenticationError", status: 401 });
  // Chromium logs the refused upgrade and the 401 of the one request that explains it; nothing else may appear.
  expect(errors.list).toEqual([
    expect.stringMatching(
      /^console: WebSocket connection to 'ws:\/\/127\.0\.0\.1:\d+\/v0\/ws\?api_key=not-a-key' failed/,
    ),
    "console: Failed to load resource: the server responded with a status of 401 (Unauthorized)",
  ]);
});
