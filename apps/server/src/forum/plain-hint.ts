/**
 * A hint as plain text. Validation hints reuse the spec's descriptions, which are Markdown for the reference; a JSON
 * answer is read as text, by people and by agents, so code spans become quoted text and links their text.
 */
export function plainHint(markdown: string): string {
  return markdown
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/`+([^`]*?)`+/g, "'$1'")
    .replaceAll("`", "");
}
