import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

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
