import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { launchChromium, watchPageErrors } from "@pigeonhole/browser-testing";
import type { Browser, BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLIENT_PACKAGES } from "../src/lib/client-pages.ts";
import { operationRoute } from "../src/lib/llms-reference.ts";
import { listOperations } from "../src/lib/openapi.ts";
import { openAPIFileRoute } from "../src/lib/openapi-files.ts";
import { readBundle } from "../src/lib/prepare-site.ts";
import { REFERENCE_SPECS } from "../src/lib/reference-specs.ts";
import { type RunningSite, serveSite } from "../src/lib/serve.ts";
import { absoluteUrl, SITE_URL } from "../src/lib/site-address.ts";
import { assertBuilt, DIST, SITE_ROOT } from "./built-site.ts";

// What the built site offers machines: llms.txt and llms-full.txt, the sitemap, canonical links, each API's OpenAPI
// file and the client reference. Every expectation is read from the site's sources (the bundles, the guides'
// folder, the packages' exports), so a new page or operation is checked without editing this file.

/** The routes of every built page (`/guides/errors/`), from the files of `dist/`. */
async function builtRoutes(): Promise<string[]> {
  const routes: string[] = [];
  for (const entry of await readdir(DIST, { recursive: true, withFileTypes: true })) {
    if (entry.isFile() && entry.name === "index.html") {
      const folder = join(entry.parentPath, "/").slice(DIST.length);
      routes.push(`/${folder}`);
    }
  }
  return routes.sort();
}

/** Every guide's absolute URL, from the guides' source folder. */
async function guideUrls(): Promise<string[]> {
  const files = await readdir(join(SITE_ROOT, "src/content/docs/guides"));
  return [absoluteUrl("/quickstart/"), ...files.map((file) => absoluteUrl(`/guides/${file.replace(/\.mdx?$/, "")}/`))];
}

/** Every operation and webhook event of each bundle, with its page's absolute URL. */
async function operationPages(): Promise<{ api: string; summary: string; url: string }[]> {
  const pages: { api: string; summary: string; url: string }[] = [];
  for (const spec of REFERENCE_SPECS) {
    for (const entry of listOperations(await readBundle(spec))) {
      const url = absoluteUrl(operationRoute(spec, entry.kind, entry.operationId));
      pages.push({ api: spec.api, summary: entry.operation.summary ?? entry.operationId, url });
    }
  }
  return pages;
}

/** The classes a package exports that are errors: what its reference page must name. */
function errorClassNames(exports: Record<string, unknown>): string[] {
  return Object.entries(exports)
    .filter(([, value]) => typeof value === "function" && value.prototype instanceof Error)
    .map(([name]) => name)
    .sort();
}

const CLIENT_EXPORTS: Record<string, () => Promise<Record<string, unknown>>> = {
  inbox: () => import("@pigeonhole/inbox"),
  forum: () => import("@pigeonhole/forum"),
  "test-control": () => import("@pigeonhole/test-control"),
  "client-core": () => import("@pigeonhole/client-core"),
};

/** The site's address of a URL on the canonical one, or undefined for another host. */
function localPath(url: string): string | undefined {
  return url.startsWith(`${SITE_URL}/`) ? url.slice(SITE_URL.length) : undefined;
}

/** The built file a route is served from. */
function builtFile(route: string): string {
  return route.endsWith("/") ? join(DIST, route, "index.html") : join(DIST, route);
}

describe("the site's files for machines", () => {
  let llms: string;
  let full: string;

  beforeAll(async () => {
    assertBuilt();
    llms = await readFile(join(DIST, "llms.txt"), "utf8");
    full = await readFile(join(DIST, "llms-full.txt"), "utf8");
  });

  it("llms.txt names the site, then lists every guide and every operation with its absolute URL", async () => {
    expect(llms.startsWith("# Pigeonhole\n")).toBe(true);
    for (const url of await guideUrls()) {
      expect(llms, url).toContain(`](${url})`);
    }
    for (const { url, summary } of await operationPages()) {
      expect(llms, url).toContain(`[${summary}](${url})`);
    }
    for (const spec of REFERENCE_SPECS) {
      expect(llms).toContain(`](${absoluteUrl(openAPIFileRoute(spec))})`);
    }
    expect(llms).toContain(`](${absoluteUrl("/llms-full.txt")})`);
  });

  it("llms.txt links only to pages and files the site has", () => {
    const targets = [...llms.matchAll(/\]\((https?:[^)\s]+)\)/g)].map((match) => match[1] ?? "");
    expect(targets.length).toBeGreaterThan(80);
    const missing = targets.filter((url) => {
      const route = localPath(url);
      return route === undefined || !existsSync(builtFile(route));
    });
    expect(missing).toEqual([]);
  });

  it("llms-full.txt has each guide with its URL, and each operation's text with its URL", async () => {
    for (const url of await guideUrls()) {
      expect(full, url).toContain(`\nSource: ${url}\n`);
    }
    // A guide's text, examples included, not only its title.
    const errors = await readFile(join(SITE_ROOT, "src/content/docs/guides/errors.mdx"), "utf8");
    const firstHeading = errors.match(/^## (.+)$/m)?.[1];
    expect(full).toContain(`## ${firstHeading}`);

    for (const spec of REFERENCE_SPECS) {
      for (const entry of listOperations(await readBundle(spec))) {
        const url = absoluteUrl(operationRoute(spec, entry.kind, entry.operationId));
        const section = full.slice(full.indexOf(`## ${entry.operation.summary}\n`));
        expect(section, url).toContain(url);
        const description = entry.operation.description;
        if (typeof description === "string") {
          expect(section, url).toContain(description.trim().split("\n")[0]);
        }
      }
    }
  });

  it("has a sitemap that lists every page by its absolute URL, and only those", async () => {
    const index = await readFile(join(DIST, "sitemap-index.xml"), "utf8");
    const sitemaps = [...index.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1] ?? "");
    expect(sitemaps.length).toBeGreaterThan(0);
    const listed: string[] = [];
    for (const sitemap of sitemaps) {
      const route = localPath(sitemap);
      expect(route, sitemap).toBeDefined();
      const text = await readFile(join(DIST, route ?? ""), "utf8");
      listed.push(...[...text.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1] ?? ""));
    }
    const pages = (await builtRoutes()).filter((route) => route !== "/404/").map(absoluteUrl);
    expect(listed.sort()).toEqual(pages);
    for (const url of [...(await guideUrls()), ...(await operationPages()).map((page) => page.url)]) {
      expect(listed, url).toContain(url);
    }
  });

  it("gives every page a canonical link to its own absolute URL", async () => {
    const wrong: string[] = [];
    for (const route of await builtRoutes()) {
      const html = await readFile(builtFile(route), "utf8");
      const canonical = html.match(/<link rel="canonical" href="([^"]+)"/)?.[1];
      if (route !== "/404/" && canonical !== absoluteUrl(route)) {
        wrong.push(`${route}: ${canonical}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("links only to pages and files it has, by root-absolute paths or the canonical address", async () => {
    const broken = new Set<string>();
    for (const route of await builtRoutes()) {
      const html = await readFile(builtFile(route), "utf8");
      for (const [, href = ""] of html.matchAll(/<a\b[^>]*\bhref="([^"#?]*)[^"]*"/g)) {
        const target = href.startsWith("/") ? href : localPath(href);
        if (target !== undefined && target !== "" && !existsSync(builtFile(decodeURI(target)))) {
          broken.add(`${route} -> ${href}`);
        }
      }
    }
    expect([...broken]).toEqual([]);
  });

  it("builds each API's OpenAPI file from its spec package's bundle, unchanged", async () => {
    for (const spec of REFERENCE_SPECS) {
      const served = JSON.parse(await readFile(builtFile(openAPIFileRoute(spec)), "utf8")) as unknown;
      expect(served, spec.api).toEqual(await readBundle(spec));
    }
  });

  it.each(CLIENT_PACKAGES.map((client) => [client.folder] as const))(
    "has a client reference page for %s naming every error class the package exports",
    async (folder) => {
      const html = await readFile(builtFile(`/clients/${folder}/`), "utf8");
      const loader = CLIENT_EXPORTS[folder];
      expect(loader, `${folder} is imported by this test`).toBeDefined();
      const classes = errorClassNames((await loader?.()) ?? {});
      expect(classes.length).toBeGreaterThan(0);
      // Named in code, as the README writes each class.
      const named = new Set([...html.matchAll(/<code\b[^>]*>([A-Za-z]+)<\/code>/g)].map((match) => match[1]));
      expect(classes.filter((name) => !named.has(name))).toEqual([]);
    },
  );
});

describe("the served site's files for machines, in Chromium", () => {
  let site: RunningSite;
  let browser: Browser;
  let context: BrowserContext;

  beforeAll(async () => {
    assertBuilt();
    site = await serveSite({ root: SITE_ROOT, port: 0 });
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await site?.close();
  });

  it.each(REFERENCE_SPECS.map((spec) => [spec.label, spec] as const))(
    "links the %s overview page to its OpenAPI file, which downloads as JSON and is the bundle",
    async (_label, spec) => {
      const page = await context.newPage();
      const errors = watchPageErrors(page);
      const response = await page.goto(new URL(`/${spec.base}/`, site.url).href, { waitUntil: "load" });
      expect(response?.status()).toBe(200);
      const link = page.locator(`main a[href="${openAPIFileRoute(spec)}"]`);
      await expect(link.isVisible()).resolves.toBe(true);
      await expect(page.locator('link[rel="canonical"]').getAttribute("href")).resolves.toBe(
        absoluteUrl(`/${spec.base}/`),
      );

      // The page's own fetch of the link's target, as a download would get it (following the link would make the
      // browser ask the JSON document for a favicon as well).
      const href = (await link.getAttribute("href")) ?? "";
      const download = await page.evaluate(async (target) => {
        const answer = await fetch(target);
        return { status: answer.status, type: answer.headers.get("content-type") ?? "", text: await answer.text() };
      }, href);
      expect(download.status).toBe(200);
      expect(download.type).toMatch(/^application\/json\b/);
      expect(JSON.parse(download.text)).toEqual(await readBundle(spec));
      expect(errors.list).toEqual([]);
      await page.close();
    },
  );

  it("serves llms.txt, llms-full.txt and the sitemap as text", async () => {
    for (const [route, type] of [
      ["/llms.txt", /^text\/plain\b/],
      ["/llms-full.txt", /^text\/plain\b/],
      ["/sitemap-index.xml", /^(application|text)\/xml\b/],
    ] as const) {
      const answer = await context.request.get(new URL(route, site.url).href);
      expect(answer.status(), route).toBe(200);
      expect(answer.headers()["content-type"], route).toMatch(type);
    }
  });

  it("shows the client reference in the sidebar, with the inbox client's error classes", async () => {
    const page = await context.newPage();
    const errors = watchPageErrors(page);
    await page.goto(new URL("/guides/errors/", site.url).href, { waitUntil: "load" });
    await page.waitForLoadState("networkidle");
    await page.locator("nav[aria-label='Main']").getByRole("link", { name: "@pigeonhole/inbox" }).first().click();
    await page.waitForURL(new URL("/clients/inbox/", site.url).href);
    await expect(page.locator("h1").first().textContent()).resolves.toBe("@pigeonhole/inbox");
    const text = (await page.locator("main").textContent()) ?? "";
    for (const name of errorClassNames(await import("@pigeonhole/inbox"))) {
      expect(text, name).toContain(name);
    }
    expect(errors.list).toEqual([]);
    await page.close();
  });
});
