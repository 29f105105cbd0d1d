import type { Page } from "playwright-core";

export interface PageErrors {
  /** Uncaught exceptions, console errors and failed requests, in the order they happened. */
  readonly list: string[];
}

/** Collects everything a page reports as an error, so a test can assert that a page logged none. */
export function watchPageErrors(page: Page): PageErrors {
  const list: string[] = [];
  page.on("pageerror", (error) => list.push(`uncaught: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error") {
      list.push(`console: ${message.text()}`);
    }
  });
  page.on("requestfailed", (request) => {
    list.push(`request failed: ${request.url()} (${request.failure()?.errorText ?? "unknown"})`);
  });
  return { list };
}
