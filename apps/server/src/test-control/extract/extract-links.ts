import { htmlTokens } from "./html-text.ts";

/** A bare http(s) URL in running text: it ends at white space, quotes or angle brackets. */
const BARE_URL = /\bhttps?:\/\/[^\s<>"'`\u00a0]+/gi;

/** Punctuation that ends a sentence or wraps a URL, rather than belonging to it, when it comes last. */
const TRAILING = /[.,;:!?'"*\u2019\u201d]$/;
const CLOSERS: Readonly<Record<string, string>> = { ")": "(", "]": "[", "}": "{", ">": "<" };

const count = (text: string, character: string) => text.split(character).length - 1;

/** Drops punctuation after a URL: `(see https://x.test/a).` keeps `https://x.test/a`, `.../wiki/A_(b)` its `)`. */
export function trimTrailingPunctuation(url: string): string {
  let trimmed = url;
  for (;;) {
    const last = trimmed.at(-1) ?? "";
    const opener = CLOSERS[last];
    if (TRAILING.test(trimmed) || (opener !== undefined && count(trimmed, last) > count(trimmed, opener))) {
      trimmed = trimmed.slice(0, -1);
    } else {
      return trimmed;
    }
  }
}

/** A URL a test can follow: http or https with a host. */
function followable(candidate: string): string | null {
  // Browsers drop white space inside an href (html that wraps long lines puts line breaks in it).
  const url = candidate.replace(/[\t\r\n]/g, "").trim();
  if (!/^https?:\/\/[^/?#\s]/i.test(url)) {
    return null;
  }
  return URL.canParse(url) ? url : null;
}

/** The bare URLs of a piece of text, in order. */
export function bareUrls(text: string): string[] {
  return [...text.matchAll(BARE_URL)]
    .map(([url]) => followable(trimTrailingPunctuation(url)))
    .filter((url): url is string => url !== null);
}

/** The `href` values and bare URLs of an html body, in document order, references decoded. */
function htmlUrls(html: string): string[] {
  const urls: string[] = [];
  for (const token of htmlTokens(html)) {
    if (token.kind === "text") {
      urls.push(...bareUrls(token.text));
    } else {
      const href = token.attributes.get("href");
      const url = href === undefined ? null : followable(href);
      if (url !== null) {
        urls.push(url);
      }
    }
  }
  return urls;
}

/**
 * The http and https links of a message: bare URLs of the text body, then `href` values and bare URLs of the html
 * body, each once, in the order they first appear.
 */
export function extractLinks(message: { text: string | null; html: string | null }): string[] {
  return [...new Set([...bareUrls(message.text ?? ""), ...htmlUrls(message.html ?? "")])];
}
