import LinkifyIt from "linkify-it";
import { htmlTokens } from "./html-text.ts";

// Bare URLs in running text are found by linkify-it (the linkifier of markdown-it, which mailparser uses too): it
// knows where a URL ends before trailing punctuation or an unbalanced parenthesis. Only written-out http(s) URLs
// count; "example.com" without a scheme is not a link a test can follow.
const linkify = new LinkifyIt().set({ fuzzyLink: false, fuzzyEmail: false, fuzzyIP: false });

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
  return (linkify.match(text) ?? [])
    .filter((match) => match.schema === "http:" || match.schema === "https:")
    .map((match) => followable(match.raw))
    .filter((url): url is string => url !== null);
}

/** The `href` values and bare URLs of an html body, in document order, references decoded. */
function htmlUrls(html: string): string[] {
  const urls: string[] = [];
  for (const token of htmlTokens(html)) {
    if (token.kind === "text") {
      urls.push(...bareUrls(token.text));
    } else {
      const { href } = token.attributes;
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
