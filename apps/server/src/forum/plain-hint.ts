/** What Markdown a hint may hold: a code span's backtick, or a link's `[`. */
const MARKDOWN_MARK = /[`[]/;

/**
 * A hint as plain text. Validation hints reuse the spec's descriptions, which are Markdown for the reference; a JSON
 * answer is read as text, by people and by agents, so code spans become quoted text and links their text. Most hints
 * are plain already (those written in the handlers, or naming a request's values): they are answered as they are,
 * without a pass of each rewrite over them.
 */
export function plainHint(markdown: string): string {
  if (!MARKDOWN_MARK.test(markdown)) {
    return markdown;
  }
  return markdown
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/`+([^`]*?)`+/g, "'$1'")
    .replaceAll("`", "");
}
