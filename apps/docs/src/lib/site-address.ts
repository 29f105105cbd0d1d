/**
 * The site's canonical address: the sitemap, the canonical link of each page and the files for language models
 * (`llms.txt`) give URLs on it. Pages link to each other with root-absolute paths (`/guides/errors/`), so the site
 * is served from the root of whatever host serves it, this one or `127.0.0.1` locally.
 */
export const SITE_URL = "https://pigeonhole.dev";

/** The absolute URL of a root-absolute route (`/guides/errors/`) on the canonical address. */
export function absoluteUrl(route: string): string {
  return new URL(route, SITE_URL).href;
}
