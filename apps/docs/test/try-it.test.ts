import { type PageErrors, saveScreenshot } from "@pigeonhole/browser-testing";
import { type Server, startServer } from "@pigeonhole/server";
import type { Locator, Page, Request } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEVELOPMENT_KEYS } from "../src/components/reference/try-it-operation.ts";
import { type BrowsedSite, browseBuiltSite, SCREENSHOTS } from "./built-site.ts";

// The "Try it" panel of the reference's operation pages, in Chromium, sending real requests to a real server. Every
// request the pages make is recorded, so the test can show where the API keys went: only to the chosen server.

/** A request's address and headers; the headers the network sent, or, if the page went first, those it asked for. */
async function recordRequest(request: Request): Promise<{ url: string; headers: Record<string, string> }> {
  const headers = await request.allHeaders().catch(() => request.headers());
  return { url: request.url(), headers };
}

/** A server the reader may choose that does not run: port 9 (discard) is closed on these machines. */
const NO_SERVER = "http://127.0.0.1:9";

/** A key the reader types in: it must reach the chosen server and nothing else. */
const TYPED_KEY = "reader-typed-secret-7f3a9c";

describe("the reference's Try it panel", () => {
  let server: Server;
  let browsed: BrowsedSite;
  /** Every request of every page, with all its headers, read while its page is open. */
  const requests: Promise<{ url: string; headers: Record<string, string> }>[] = [];

  beforeAll(async () => {
    server = await startServer({ inboxPort: 0, forumPort: 0, database: ":memory:", logger: false });
    browsed = await browseBuiltSite([server.inbox.url, server.forum.url, NO_SERVER]);
    browsed.context.on("request", (request) => requests.push(recordRequest(request)));
  });

  afterAll(async () => {
    await browsed?.close();
    await server?.close();
  });

  async function open(route: string): Promise<{ page: Page; errors: PageErrors; panel: Locator }> {
    const { page, errors } = await browsed.open(route);
    const panel = page.locator("pigeonhole-try-it");
    await expect(panel.count()).resolves.toBe(1);
    // Opened with the keyboard, as a reader without a mouse would.
    await panel.locator("summary").focus();
    await page.keyboard.press("Enter");
    await expect(panel.locator("details").getAttribute("open")).resolves.toBe("");
    return { page, errors, panel };
  }

  /** Points the panel at `baseUrl`, sends, and returns the answer's status line and body once shown. */
  async function send(panel: Locator, baseUrl: string): Promise<{ status: string; body: string; headers: string }> {
    await panel.getByLabel("Server").fill(baseUrl);
    // Sending first replaces the previous answer with "Sending ...", so the wait below sees only this answer.
    await panel.getByRole("button", { name: "Send request" }).press("Enter");
    await panel
      .locator("[data-status]")
      .filter({ hasText: / from |No answer / })
      .waitFor();
    await panel.locator("[data-send]:enabled").waitFor();
    return {
      status: (await panel.locator("[data-status]").textContent()) ?? "",
      body: (await panel.locator("[data-body]").textContent()) ?? "",
      headers: (await panel.locator("[data-headers]").textContent()) ?? "",
    };
  }

  it("starts each API's panel at the local server with its development key, and says where it sends", async () => {
    expect(server.inbox.apiKey).toBe(DEVELOPMENT_KEYS.inbox);
    expect(server.forum.apiKey).toBe(DEVELOPMENT_KEYS.forum);
    for (const [route, base, key] of [
      ["/reference/inbox/operations/listinboxes/", "http://127.0.0.1:4010", DEVELOPMENT_KEYS.inbox],
      ["/reference/forum/operations/listposts/", "http://127.0.0.1:4020", DEVELOPMENT_KEYS.forum],
    ] as const) {
      const { page, panel } = await open(route);
      await expect(panel.getByLabel("Server").inputValue()).resolves.toBe(base);
      await expect(panel.getByLabel("API key").inputValue()).resolves.toBe(key);
      await expect(panel.locator("[data-destination]").textContent()).resolves.toContain(`to ${base} only`);
      await panel.getByLabel("Server").fill("http://127.0.0.1:9");
      await expect(panel.locator("[data-destination]").textContent()).resolves.toContain("to http://127.0.0.1:9 only");
      await page.close();
    }
  });

  it("creates an inbox with the operation's example body and shows the answer", async () => {
    const { page, errors, panel } = await open("/reference/inbox/operations/createinbox/");
    const body = JSON.parse(await panel.getByLabel("Body (JSON)").inputValue()) as { username?: string };
    expect(body.username).toBe("support");
    const answer = await send(panel, server.inbox.url);
    expect(answer.status).toMatch(/^200 OK from POST http:\/\/127\.0\.0\.1:\d+\/v0\/inboxes$/);
    expect(JSON.parse(answer.body)).toMatchObject({ inbox_id: "support@pigeonhole.test" });
    expect(answer.headers).toMatch(/x-request-id\s*req_/);
    await saveScreenshot(page, SCREENSHOTS, "try-it-create-inbox");
    expect(errors.list).toEqual([]);
    await page.close();
  });

  it("lists inboxes with a query parameter and fills a path parameter", async () => {
    const { page, errors, panel } = await open("/reference/inbox/operations/listinboxes/");
    await panel.getByLabel("limit").fill("5");
    const listed = await send(panel, server.inbox.url);
    expect(listed.status).toMatch(/^200 OK from GET .*\/v0\/inboxes\?limit=5$/);
    const list = JSON.parse(listed.body) as { limit: number; inboxes: { inbox_id: string }[] };
    expect(list.limit).toBe(5);
    expect(list.inboxes.map((inbox) => inbox.inbox_id)).toContain("support@pigeonhole.test");
    await page.close();

    const got = await open("/reference/inbox/operations/getinbox/");
    await expect(got.panel.getByLabel("inbox_id").inputValue()).resolves.toBe("support@pigeonhole.test");
    const answer = await send(got.panel, server.inbox.url);
    // The address travels URL-encoded in the path.
    expect(answer.status).toMatch(/^200 OK from GET .*\/v0\/inboxes\/support%40pigeonhole\.test$/);
    expect(JSON.parse(answer.body)).toMatchObject({ inbox_id: "support@pigeonhole.test" });
    expect(errors.list).toEqual([]);
    expect(got.errors.list).toEqual([]);
    await got.page.close();
  });

  it("shows an error answer with its envelope", async () => {
    const { page, panel } = await open("/reference/inbox/operations/getinbox/");
    await panel.getByLabel("inbox_id").fill("nobody@pigeonhole.test");
    const answer = await send(panel, server.inbox.url);
    expect(answer.status).toMatch(/^404 Not Found from GET /);
    expect(JSON.parse(answer.body)).toEqual({
      error: {
        type: "not_found_error",
        message: expect.any(String),
        details: { field: "inbox_id", code: "NOT_FOUND" },
      },
    });
    await expect(panel.locator("[data-answer]").getAttribute("data-outcome")).resolves.toBe("error");
    await saveScreenshot(page, SCREENSHOTS, "try-it-error");

    // A key the reader types is the one sent: an unknown one is refused by the server.
    await panel.getByLabel("API key").fill(TYPED_KEY);
    const refused = await send(panel, server.inbox.url);
    expect(refused.status).toMatch(/^401 Unauthorized from GET /);
    expect(JSON.parse(refused.body)).toMatchObject({ error: { type: "authentication_error" } });
    await page.close();
  });

  it("calls the forum: registers an agent with no key, then lists posts with the agent's key", async () => {
    const register = await open("/reference/forum/operations/registeragent/");
    await expect(register.panel.getByLabel("API key").count()).resolves.toBe(0);
    await expect(register.panel.locator("[data-destination]").textContent()).resolves.toContain("none is sent");
    const registered = await send(register.panel, server.forum.url);
    expect(registered.status).toMatch(/^201 Created from POST .*\/api\/v1\/agents\/register$/);
    expect(JSON.parse(registered.body)).toMatchObject({ success: true, agent: { name: "ada" } });
    await register.page.close();

    const { page, errors, panel } = await open("/reference/forum/operations/listposts/");
    const listed = await send(panel, server.forum.url);
    expect(listed.status).toMatch(/^200 OK from GET .*\/api\/v1\/posts$/);
    expect(JSON.parse(listed.body)).toMatchObject({ success: true, posts: expect.any(Array) });
    expect(errors.list).toEqual([]);
    await page.close();
  });

  it("says so when no server answers", async () => {
    const { page, panel } = await open("/reference/inbox/operations/listinboxes/");
    const answer = await send(panel, NO_SERVER);
    expect(answer.status).toContain("No answer from http://127.0.0.1:9");
    await expect(panel.locator("[data-answer]").getAttribute("data-outcome")).resolves.toBe("problem");
    await page.close();
  });

  it("sent every key only to the chosen server, in the Authorization header, and kept none", async () => {
    const keys = [DEVELOPMENT_KEYS.inbox, DEVELOPMENT_KEYS.forum, TYPED_KEY];
    // The servers chosen in the tests above: the two services, and the one that did not answer.
    const serverOrigins = [server.inbox.url, server.forum.url, NO_SERVER].map((url) => new URL(url).origin);
    const carryingKey: string[] = [];
    for (const request of await Promise.all(requests)) {
      const { headers } = request;
      const inUrl = keys.some((key) => request.url.includes(key));
      const inHeaders = Object.entries(headers).filter(([, value]) => keys.some((key) => value.includes(key)));
      if (inUrl || inHeaders.length > 0) {
        carryingKey.push(request.url);
        expect(inUrl, request.url).toBe(false);
        expect(inHeaders.map(([name]) => name)).toEqual(["authorization"]);
        expect(serverOrigins).toContain(new URL(request.url).origin);
      }
    }
    // Create, list, get (twice), the 404, the 401 and the forum's list carried a key; the registration did not.
    expect(carryingKey.length).toBeGreaterThanOrEqual(6);
    expect(browsed.foreignRequests).toEqual([]);

    const page = await browsed.context.newPage();
    await page.goto(new URL("/reference/inbox/operations/listinboxes/", browsed.site.url).href);
    const kept = await page.evaluate(() =>
      JSON.stringify([{ ...localStorage }, { ...sessionStorage }, document.cookie, location.href]),
    );
    for (const key of keys) {
      expect(kept).not.toContain(key);
    }
    await page.close();
  });

  it("reads without JavaScript, and says that sending needs it", async () => {
    const plain = await browsed.browser.newContext({ javaScriptEnabled: false });
    const page = await plain.newPage();
    await page.goto(new URL("/reference/inbox/operations/sendmessage/", browsed.site.url).href);
    await expect(page.locator("h1").first().textContent()).resolves.toBe("Send a message");
    const panel = page.locator("pigeonhole-try-it");
    await expect(panel.locator("[data-send]").isDisabled()).resolves.toBe(true);
    await expect(panel.locator("[data-no-script]").textContent()).resolves.toContain("needs JavaScript");
    await plain.close();
  });
});
