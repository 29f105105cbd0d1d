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
    const reason = request.failure()?.errorText ?? "unknown";
    // A navigation or a link prefetch cut short by the next click is the browser's choice, not a failure of the page.
    const superseded =
      reason === "net::ERR_ABORTED" &&
      (request.isNavigationRequest() || (request.headers()["sec-purpose"] ?? "").includes("prefetch"));
    if (!superseded) {
      list.push(`request failed: ${request.url()} (${reason})`);
    }
  });
  return { list };
}
