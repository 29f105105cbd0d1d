import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { launchChromium, type PageErrors, watchPageErrors } from "@pigeonhole/browser-testing";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { expect } from "vitest";
import { type RunningSite, serveSite } from "../src/lib/serve.ts";

/** `apps/docs`. */
export const SITE_ROOT = fileURLToPath(new URL("..", import.meta.url));
export const DIST = fileURLToPath(new URL("../dist/", import.meta.url));
export const SCREENSHOTS = fileURLToPath(new URL("../test-results/screenshots/", import.meta.url));

/** The suites read the built site; say how to get it rather than failing on a missing file. */
export function assertBuilt(): void {
  if (!existsSync(`${DIST}index.html`)) {
    throw new Error("No built site in apps/docs/dist: run `pnpm --filter @pigeonhole/docs build` first.");
  }
}

/** The built site served on a free port and a Chromium context that may reach only it and the origins allowed. */
export interface BrowsedSite {
  site: RunningSite;
  browser: Browser;
  context: BrowserContext;
  /** Requests to any other origin, which the context refused. */
  foreignRequests: string[];
  /** Opens `route` of the site in a new page (it must answer 200) with the errors the page reports from now on. */
  open(route: string): Promise<{ page: Page; errors: PageErrors }>;
  close(): Promise<void>;
}

/** Serves the built site and opens a 1280 px wide Chromium context on it, refusing every origin but `allowed`'s. */
export async function browseBuiltSite(allowed: readonly string[] = []): Promise<BrowsedSite> {
  assertBuilt();
  const site = await serveSite({ root: SITE_ROOT, port: 0 });
  const browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const origins = [site.url, ...allowed].map((url) => new URL(url).origin);
  const foreignRequests: string[] = [];
  await context.route("**/*", (route) => {
    const url = route.request().url();
    if (url.startsWith("data:") || origins.includes(new URL(url).origin)) {
      return route.continue();
    }
    foreignRequests.push(url);
    return route.abort("blockedbyclient");
  });
  return {
    site,
    browser,
    context,
    foreignRequests,
    async open(route) {
      const page = await context.newPage();
      const errors = watchPageErrors(page);
      const response = await page.goto(new URL(route, site.url).href, { waitUntil: "load" });
      expect(response?.status(), `status of ${route}`).toBe(200);
      return { page, errors };
    },
    async close() {
      await context.close();
      await browser.close();
      await site.close();
    },
  };
}
