// Reading an html body as text: the parts a reader sees, with character references decoded. Mail html is small and
// often malformed, so a forgiving scan of tags and text is enough; no document is built.

/** The named character references mail html uses; any other is kept as written. */
const NAMED_REFERENCES: Readonly<Record<string, string>> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: "\u00a0",
  ndash: "\u2013",
  mdash: "\u2014",
  hellip: "\u2026",
  copy: "\u00a9",
  reg: "\u00ae",
  trade: "\u2122",
  laquo: "\u00ab",
  raquo: "\u00bb",
  lsquo: "\u2018",
  rsquo: "\u2019",
  ldquo: "\u201c",
  rdquo: "\u201d",
  zwnj: "\u200c",
  zwj: "\u200d",
  shy: "\u00ad",
  sol: "/",
  colon: ":",
  quest: "?",
  equals: "=",
  num: "#",
  percnt: "%",
};

const codePoint = (value: number, written: string): string =>
  Number.isInteger(value) && value > 0 && value <= 0x10ffff ? String.fromCodePoint(value) : written;

/** Decodes `&amp;`, `&#38;`, `&#x26;` and the other references of {@link NAMED_REFERENCES}. */
export function decodeCharacterReferences(html: string): string {
  return html.replace(/&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([a-zA-Z]{2,8}));?/g, (written, dec, hex, name) => {
    if (dec !== undefined) {
      return codePoint(Number.parseInt(dec, 10), written);
    }
    if (hex !== undefined) {
      return codePoint(Number.parseInt(hex, 16), written);
    }
    return NAMED_REFERENCES[(name as string).toLowerCase()] ?? written;
  });
}

/** A piece of an html body: the text between tags, or a start tag with its attributes. */
export type HtmlToken = { kind: "text"; text: string } | { kind: "tag"; name: string; attributes: Map<string, string> };

/**
 * Comments, the content of elements a reader never sees (head, style, script, template), start and end tags (a
 * quoted attribute value may hold `>`), and everything else as text.
 */
const TOKEN =
  /<!--[\s\S]*?(?:-->|$)|<(head|style|script|template|title)\b(?:"[^"]*"|'[^']*'|[^'">])*>[\s\S]*?(?:<\/\1\s*>|$)|<(\/?)([a-zA-Z][^\s/>]*)((?:"[^"]*"|'[^']*'|[^'">])*)>|<![^>]*>/gi;

const ATTRIBUTE = /([^\s"'<>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'<>`]+)))?/g;

function attributesOf(source: string): Map<string, string> {
  const attributes = new Map<string, string>();
  for (const [, name = "", doubleQuoted, singleQuoted, unquoted] of source.matchAll(ATTRIBUTE)) {
    const key = name.toLowerCase();
    if (!attributes.has(key)) {
      attributes.set(key, decodeCharacterReferences(doubleQuoted ?? singleQuoted ?? unquoted ?? ""));
    }
  }
  return attributes;
}

/** The start tags and decoded text of an html body, in document order (end tags only separate text). */
export function* htmlTokens(html: string): Generator<HtmlToken> {
  let last = 0;
  for (const match of html.matchAll(TOKEN)) {
    if (match.index > last) {
      yield { kind: "text", text: decodeCharacterReferences(html.slice(last, match.index)) };
    }
    last = match.index + match[0].length;
    const [, , closing, name, attributes] = match;
    if (name !== undefined) {
      yield closing
        ? { kind: "tag", name: `/${name.toLowerCase()}`, attributes: new Map() }
        : { kind: "tag", name: name.toLowerCase(), attributes: attributesOf(attributes ?? "") };
    } else {
      // A comment or a hidden element still separates the words around it.
      yield { kind: "tag", name: "#hidden", attributes: new Map() };
    }
  }
  if (last < html.length) {
    yield { kind: "text", text: decodeCharacterReferences(html.slice(last)) };
  }
}

/** Elements that style a run of text without breaking it: `<b>48</b>2913` reads as one word. */
const INLINE_ELEMENTS = new Set([
  "a",
  "abbr",
  "b",
  "bdi",
  "bdo",
  "cite",
  "code",
  "data",
  "dfn",
  "em",
  "font",
  "i",
  "kbd",
  "mark",
  "q",
  "s",
  "samp",
  "small",
  "span",
  "strong",
  "sub",
  "sup",
  "time",
  "u",
  "var",
  "wbr",
]);

/** The text a reader of an html body sees: tags removed (the others break the line), references decoded. */
export function htmlToText(html: string): string {
  let text = "";
  for (const token of htmlTokens(html)) {
    if (token.kind === "text") {
      text += token.text;
    } else if (!INLINE_ELEMENTS.has(token.name.replace(/^\//, ""))) {
      text += "\n";
    }
  }
  return text;
}
