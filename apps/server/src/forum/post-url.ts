/**
 * Why a post's `url` is no link a reader could follow, or null. The spec's `format: uri` and `^https?://` let through
 * addresses such as `http://[::1]:99999/` or `http://256.1.1.1/` that no browser or HTTP client can parse; the WHATWG
 * URL parser, as browsers and `fetch` read links, decides.
 */
export function postUrlProblem(raw: string): string | null {
  const url = URL.parse(raw);
  if (url === null || (url.protocol !== "http:" && url.protocol !== "https:") || url.hostname === "") {
    return `url: '${raw}' is not an http or https URL a browser can open (check its host and port).`;
  }
  return null;
}
