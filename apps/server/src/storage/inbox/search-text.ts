// What the message search index reads of a message, written the same way in JavaScript (SQLite's index function) and
// in SQL (PostgreSQL's, in migration 0011), so that a message matches the same words on both databases.

/** Characters of each field the index reads: enough for any real message, and a bound on one message's index work. */
export const INDEXED_CHARACTERS = 100_000;

/** The SQL function SQLite's index triggers call to read the words of an html body (see {@link htmlText}). */
export const HTML_TEXT_FUNCTION = "pigeonhole_html_text";

/**
 * The text a reader sees of an html body, as words to index: scripts, styles and comments are dropped, every tag and
 * character reference becomes a space. Only the first {@link INDEXED_CHARACTERS} characters are read.
 */
export function htmlText(html: string | null): string {
  if (html === null) {
    return "";
  }
  return html
    .slice(0, INDEXED_CHARACTERS)
    .replace(/<script\b.*?<\/script\s*>/gis, " ")
    .replace(/<style\b.*?<\/style\s*>/gis, " ")
    .replace(/<!--.*?-->/gs, " ")
    .replace(/<[^>]*>/g, " ")
    .replace(/&#?[a-z0-9]+;/gi, " ");
}
