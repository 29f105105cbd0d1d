import { mkdir, readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { type PageErrors, saveScreenshot, watchPageErrors } from "@pigeonhole/browser-testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listOperations, type OperationEntry } from "../src/lib/openapi.ts";
import { readBundle } from "../src/lib/prepare-site.ts";
import { REFERENCE_SPECS, type ReferenceSpec } from "../src/lib/reference-specs.ts";
import { type BrowsedSite, browseBuiltSite, SCREENSHOTS, SITE_ROOT } from "./built-site.ts";

interface ReferencePage {
  spec: ReferenceSpec;
  entry: OperationEntry;
  route: string;
  example: string;
  /** The curl example, which every operation has and a webhook event has not. */
  curl: string | undefined;
}

// Every operation of both bundles, read from the bundles themselves so a new operation gets its page checked.
const referencePages: ReferencePage[] = [];
for (const spec of REFERENCE_SPECS) {
  for (const entry of listOperations(await readBundle(spec))) {
    const folder = entry.kind === "path" ? "operations" : "webhooks";
    const examples = join(SITE_ROOT, "examples", spec.api);
    const example = await readFile(join(examples, `${entry.operationId}.ts`), "utf8");
    const curl = entry.kind === "path" ? await readFile(join(examples, `${entry.operationId}.sh`), "utf8") : undefined;
    referencePages.push({
      spec,
      entry,
      route: `/${spec.base}/${folder}/${entry.operationId.toLowerCase()}/`,
      example,
      curl,
    });
  }
}

/** Code as a reader sees it, whitespace aside: highlighted code is split into many elements and lines. */
function normalizeCode(text: string): string {
  return text.replace(/\s+/g, "");
}

describe("the built documentation site", () => {
  let browsed: BrowsedSite;
  const open = (route: string) => browsed.open(route);

  beforeAll(async () => {
    browsed = await browseBuiltSite();
  });

  afterAll(async () => {
    await browsed?.close();
  });

  function expectClean(errors: PageErrors): void {
    expect(errors.list).toEqual([]);
    expect(browsed.foreignRequests).toEqual([]);
  }

  it("shows the home page with both APIs and a way in", async () => {
    const { page, errors } = await open("/");
    await expect(page.locator("h1").first().textContent()).resolves.toBe("Pigeonhole");
    const main = page.locator("main");
    // The cards that introduce each API.
    await expect(main.locator(".card .title").allTextContents()).resolves.toEqual(
      expect.arrayContaining(["Inbox API", "Forum API"]),
    );
    await saveScreenshot(page, SCREENSHOTS, "home");
    expectClean(errors);

    // Leaving a page that is still loading cancels its requests, which would show up as failures.
    await page.waitForLoadState("networkidle");
    await main.getByRole("link", { name: "Quickstart" }).first().click();
    await page.waitForURL(new URL("/quickstart/", browsed.site.url).href);
    await expect(page.locator("h1").first().textContent()).resolves.toBe("Quickstart");
    await page.close();
  });

  it("shows code on the home page, and links to the repository the packages name", async () => {
    const { page, errors } = await open("/");
    const example = await readFile(join(SITE_ROOT, "examples/guides/home.ts"), "utf8");
    const code = await page.locator("main .expressive-code pre").allTextContents();
    expect(code.some((block) => normalizeCode(block).includes(normalizeCode(example)))).toBe(true);
    const manifest = JSON.parse(await readFile(join(SITE_ROOT, "../../packages/inbox/package.json"), "utf8")) as {
      repository: { url: string };
    };
    const repository = manifest.repository.url.replace(/^git\+/, "").replace(/\.git$/, "");
    await expect(page.locator(`main a[href="${repository}"]`).count()).resolves.toBeGreaterThan(0);
    expectClean(errors);
    await page.close();
  });

  it("shows the quickstart's three commands, each with its output, on the first screen", async () => {
    // The first screen of a 1080-pixel display: what a browser's window leaves of it for the page.
    const { page, errors } = await open("/quickstart/");
    await page.setViewportSize({ width: 1280, height: 1000 });
    const files = ["start.sh", "start.txt", "create-inbox.sh", "create-inbox.txt", "send.sh", "send.txt"];
    const shown = await Promise.all(
      files.map((file) => readFile(join(SITE_ROOT, "examples/guides/quickstart", file), "utf8")),
    );
    // Each code block's text and where it ends, against the height of the window.
    const blocks = await page
      .locator("main .expressive-code pre")
      .evaluateAll((pres) =>
        pres.map((pre) => ({ text: pre.textContent ?? "", bottom: pre.getBoundingClientRect().bottom })),
      );
    const height = await page.evaluate(() => window.innerHeight);
    const bottoms = shown.map(
      (text) => blocks.find((block) => normalizeCode(block.text).includes(normalizeCode(text)))?.bottom,
    );
    expect(
      bottoms.every((bottom) => bottom !== undefined && bottom <= height),
      JSON.stringify(bottoms),
    ).toBe(true);
    await saveScreenshot(page, SCREENSHOTS, "quickstart-first-screen");
    expectClean(errors);
    await page.close();
  });

  it("answers an unknown address with the site's 404 page, which leads back in", async () => {
    const page = await browsed.context.newPage();
    const errors = watchPageErrors(page);
    const response = await page.goto(new URL("/no-such-page/", browsed.site.url).href, { waitUntil: "load" });
    expect(response?.status()).toBe(404);
    await expect(page.locator("h1").first().textContent()).resolves.toBe("Page not found");
    const translations = JSON.parse(await readFile(join(SITE_ROOT, "src/content/i18n/en.json"), "utf8")) as {
      "404.text": string;
    };
    await expect(page.locator("main").textContent()).resolves.toContain(translations["404.text"]);
    await expect(page.locator("main").getByRole("link", { name: "Quickstart" }).getAttribute("href")).resolves.toBe(
      "/quickstart/",
    );
    // The browser reports the page's own 404 as a failed load; nothing else may fail.
    expect(errors.list).toEqual([
      "console: Failed to load resource: the server responded with a status of 404 (Not Found)",
    ]);
    expect(browsed.foreignRequests).toEqual([]);
    await page.close();
  });

  it("shows a guide with its typechecked example", async () => {
    const { page, errors } = await open("/quickstart/");
    await expect(page.locator("h1").first().textContent()).resolves.toBe("Quickstart");
    const example = await readFile(join(SITE_ROOT, "examples/guides/quickstart.ts"), "utf8");
    const code = await page.locator(".expressive-code pre").allTextContents();
    expect(code.some((block) => normalizeCode(block).includes(normalizeCode(example)))).toBe(true);
    await saveScreenshot(page, SCREENSHOTS, "guide-quickstart");
    expectClean(errors);
    await page.close();
  });

  it("shows the forum guide with each example it is built from, the ones the tests run included", async () => {
    const { page, errors } = await open("/guides/agents-communities-votes/");
    await expect(page.locator("h1").first().textContent()).resolves.toBe("Agents, communities and votes");
    const code = (await page.locator(".expressive-code pre").allTextContents()).map(normalizeCode);
    for (const file of [
      "forum/registerAgent.ts",
      "forum/registerAgent.sh",
      "forum/getMe.ts",
      "forum/createCommunity.ts",
      "forum/getCommunity.ts",
      "guides/forum-votes.ts",
      "guides/forum-deletes.ts",
      "guides/forum-idempotency.ts",
    ]) {
      const example = normalizeCode(await readFile(join(SITE_ROOT, "examples", file), "utf8"));
      expect(
        code.some((block) => block.includes(example)),
        file,
      ).toBe(true);
    }
    await saveScreenshot(page, SCREENSHOTS, "guide-agents-communities-votes");
    expectClean(errors);
    await page.close();
  });

  it("shows the inbox guide with each example it is built from, the ones the tests run included", async () => {
    const { page, errors } = await open("/guides/working-an-inbox/");
    await expect(page.locator("h1").first().textContent()).resolves.toBe("Working an inbox");
    const code = (await page.locator(".expressive-code pre").allTextContents()).map(normalizeCode);
    for (const file of [
      "guides/inbox-receive.ts",
      "guides/inbox-read.ts",
      "inbox/updateMessage.sh",
      "guides/inbox-labels.ts",
      "guides/inbox-reply.ts",
      "guides/inbox-download.ts",
      "inbox/getAttachment.sh",
      "guides/inbox-delete.ts",
    ]) {
      const example = normalizeCode(await readFile(join(SITE_ROOT, "examples", file), "utf8"));
      expect(
        code.some((block) => block.includes(example)),
        file,
      ).toBe(true);
    }
    await saveScreenshot(page, SCREENSHOTS, "guide-working-an-inbox");
    expectClean(errors);
    await page.close();
  });

  it("shows the live events guide with each example it is built from, the ones the tests run", async () => {
    const { page, errors } = await open("/guides/live-events/");
    await expect(page.locator("h1").first().textContent()).resolves.toBe("Live events");
    const code = (await page.locator(".expressive-code pre").allTextContents()).map(normalizeCode);
    for (const file of ["guides/live-events.ts", "guides/live-events-resume.ts", "guides/live-events-raw.ts"]) {
      const example = normalizeCode(await readFile(join(SITE_ROOT, "examples", file), "utf8"));
      expect(
        code.some((block) => block.includes(example)),
        file,
      ).toBe(true);
    }
    await saveScreenshot(page, SCREENSHOTS, "guide-live-events");
    expectClean(errors);
    await page.close();
  });

  it("shows the real e-mail guide with each example it is built from", async () => {
    const { page, errors } = await open("/guides/real-email/");
    await expect(page.locator("h1").first().textContent()).resolves.toBe("Receiving and sending real e-mail");
    const code = (await page.locator(".expressive-code pre").allTextContents()).map(normalizeCode);
    for (const file of [
      "guides/email-swaks.sh",
      "guides/email-read.ts",
      "guides/email-send.ts",
      "guides/email-outcomes.ts",
      "inbox/onMessageBounced.ts",
    ]) {
      const example = normalizeCode(await readFile(join(SITE_ROOT, "examples", file), "utf8"));
      expect(
        code.some((block) => block.includes(example)),
        file,
      ).toBe(true);
    }
    await saveScreenshot(page, SCREENSHOTS, "guide-real-email");
    expectClean(errors);
    await page.close();
  });

  it("shows the testing guide with every file of its test suite, and no code that is not one", async () => {
    const { page, errors } = await open("/guides/testing-your-integration/");
    await expect(page.locator("h1").first().textContent()).resolves.toBe("Testing your integration");
    const code = (await page.locator(".expressive-code pre").allTextContents()).map(normalizeCode);
    const files = [
      ...(await readdir(join(SITE_ROOT, "examples/guides/testing"))).map((file) => `guides/testing/${file}`),
      "guides/testing-start.sh",
      "guides/testing-off-in-production.sh",
    ];
    const shown = await Promise.all(
      files.map(async (file) => normalizeCode(await readFile(join(SITE_ROOT, "examples", file), "utf8"))),
    );
    for (const [index, file] of files.entries()) {
      expect(code, file).toContain(shown[index]);
    }
    // Besides the files, only the install command.
    expect(code.filter((block) => !shown.includes(block))).toEqual([
      normalizeCode("npm install --save-dev @pigeonhole/server @pigeonhole/test-control vitest @types/node"),
    ]);
    // In the sidebar, after running locally.
    const guides = await page.locator("nav[aria-label='Main'] a").allTextContents();
    const at = guides.map((text) => text.trim()).indexOf("Testing your integration");
    expect(guides[at - 1]?.trim()).toBe("Running locally");
    await saveScreenshot(page, SCREENSHOTS, "guide-testing-your-integration");
    expectClean(errors);
    await page.close();
  });

  it("has a reference page for each of the 67 inbox operations, 6 webhook events, 28 forum and 12 test-control operations", () => {
    const count = (api: string, kind: OperationEntry["kind"]) =>
      referencePages.filter((item) => item.spec.api === api && item.entry.kind === kind).length;
    expect([
      count("inbox", "path"),
      count("inbox", "webhook"),
      count("forum", "path"),
      count("test-control", "path"),
      count("test-control", "webhook"),
    ]).toEqual([67, 6, 28, 12, 0]);
  });

  it.each(referencePages.map((item) => [item.route, item] as const))(
    "renders %s with its summary, path, responses and examples",
    async (route, { spec, entry, example, curl }) => {
      const { page, errors } = await open(route);
      await expect(page.locator("h1").first().textContent()).resolves.toBe(entry.operation.summary);

      const header = page.locator(".sl-openapi-operation-description");
      await expect(header.locator(".sl-openapi-operation-method-badge").textContent()).resolves.toBe(
        entry.method.toUpperCase(),
      );
      if (entry.kind === "path") {
        await expect(header.locator(".sl-openapi-operation-method-path").textContent()).resolves.toBe(entry.key);
      } else {
        await expect(page.locator("main").textContent()).resolves.toContain(entry.key);
      }

      // The example shown first is exactly the typechecked file, and it uses our client.
      const snippets = header.locator(".sl-openapi-snippet");
      const typescript = snippets.first();
      await expect(typescript.isVisible()).resolves.toBe(true);
      expect(normalizeCode((await typescript.locator("pre").textContent()) ?? "")).toBe(normalizeCode(example));
      expect(example).toContain(`from "${spec.client}"`);
      const picker = header.locator(".sl-openapi-snippet-picker");
      if (curl === undefined) {
        // A webhook event is sent by the service: its one example is the receiver.
        await expect(snippets.count()).resolves.toBe(1);
        await expect(picker.textContent()).resolves.toContain("TypeScript");
      } else {
        // The curl example, one choice away in the picker, is exactly the file the docs tests run with curl.
        const select = picker.locator("select");
        await expect(select.locator("option").allTextContents()).resolves.toEqual(["TypeScript", "curl"]);
        await select.selectOption({ label: "curl" });
        const shell = snippets.nth(1);
        await expect(shell.isVisible()).resolves.toBe(true);
        await expect(typescript.isVisible()).resolves.toBe(false);
        expect(normalizeCode((await shell.locator("pre").textContent()) ?? "")).toBe(normalizeCode(curl));
        if (route.endsWith("/sendmessage/")) {
          await mkdir(SCREENSHOTS, { recursive: true });
          await page.screenshot({ path: join(SCREENSHOTS, `reference-${spec.api}-${entry.operationId}-curl.png`) });
        }
        // The choice is remembered from page to page: go back to TypeScript for the next one.
        await select.selectOption({ label: "TypeScript" });
        await expect(typescript.isVisible()).resolves.toBe(true);
      }

      const responses = Object.keys((entry.operation.responses ?? {}) as Record<string, unknown>);
      expect(responses.length).toBeGreaterThan(0);
      for (const status of responses) {
        await expect(page.locator(`main [id="${status}"]`).count(), `response ${status}`).resolves.toBe(1);
      }

      if (route.endsWith("/sendmessage/") || route.endsWith("/votepost/") || route.endsWith("/onmessagereceived/")) {
        // The top of the page (title, method, path, example): a full reference page is tens of screens long.
        await mkdir(SCREENSHOTS, { recursive: true });
        await page.screenshot({ path: join(SCREENSHOTS, `reference-${spec.api}-${entry.operationId}.png`) });
      }
      expectClean(errors);
      await page.close();
    },
  );

  it("shows the schema and the examples of a request body and of its answer", async () => {
    const { page, errors } = await open("/reference/inbox/operations/sendmessage/");
    const main = page.locator("main");
    // A field of SendMessageRequest, and values from the spec's request and response examples.
    await expect(main.getByText("Idempotency-Key", { exact: true }).first().isVisible()).resolves.toBe(true);
    const text = (await main.textContent()) ?? "";
    expect(text).toContain("attachments");
    expect(text).toContain("invoice-2026-11.pdf");
    expect(text).toContain("thd_7Hq2mZ4kP9xR3vLc");
    expect(text).toContain("TOO_MANY_RECIPIENTS");
    expectClean(errors);
    await page.close();
  });

  it("navigates from a guide through the sidebar to a guide and to a reference page", async () => {
    const { page, errors } = await open("/quickstart/");
    const sidebar = page.locator("nav[aria-label='Main']");

    await page.waitForLoadState("networkidle");
    await sidebar.getByRole("link", { name: "Errors", exact: true }).click();
    await page.waitForURL(new URL("/guides/errors/", browsed.site.url).href);
    await expect(page.locator("h1").first().textContent()).resolves.toBe("Errors");
    await page.waitForLoadState("networkidle");

    // Operations sit in one folded group per tag; open "Votes" to reach its operation.
    const votes = page.locator("nav[aria-label='Main'] summary", { hasText: "Votes" });
    if ((await votes.locator("xpath=..").getAttribute("open")) === null) {
      await votes.click();
    }
    await page.locator("nav[aria-label='Main']").getByRole("link", { name: "Vote on a post" }).click();
    await page.waitForURL(new URL("/reference/forum/operations/votepost/", browsed.site.url).href);
    await expect(page.locator("h1").first().textContent()).resolves.toBe("Vote on a post");
    expectClean(errors);
    await page.close();
  });

  it.each([
    ["idempotency", "/guides/retries-and-idempotency/", "search-guide"],
    ["Vote on a post", "/reference/forum/operations/votepost/", "search-reference"],
  ])("finds %j with the offline search and opens %s", async (query, target, screenshot) => {
    const { page, errors } = await open("/");
    await page.locator("site-search button[data-open-modal]").first().click();
    const input = page.locator("dialog[open] input.pagefind-ui__search-input");
    await input.waitFor({ state: "visible" });
    await input.fill(query);

    const targetUrl = new URL(target, browsed.site.url);
    const result = page.locator(`dialog[open] a.pagefind-ui__result-link[href="${targetUrl.pathname}"]`).first();
    await result.waitFor({ state: "visible", timeout: 10_000 });
    await saveScreenshot(page, SCREENSHOTS, screenshot);
    await page.waitForLoadState("networkidle");
    await result.click();
    await page.waitForURL((url) => url.pathname === targetUrl.pathname);
    expectClean(errors);
    await page.close();
  });
});
