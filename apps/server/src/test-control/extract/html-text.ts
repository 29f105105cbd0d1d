import { Parser } from "htmlparser2";

// Reading an html body as a reader sees it, with htmlparser2: a forgiving parser made for the malformed html of mail,
// which decodes every character reference.

/** A piece of an html body: visible text, or a start tag with its attributes. */
export type HtmlToken =
  | { kind: "text"; text: string }
  | { kind: "tag"; name: string; attributes: Record<string, string> };

/** Elements whose content a reader never sees. */
const HIDDEN_ELEMENTS = new Set(["head", "style", "script", "template", "title"]);

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

/**
 * The visible text and the start tags of an html body, in document order. Every other tag (an end tag, a comment, a
 * hidden element) that does not style text inline comes as a line break, so that words on either side stay apart.
 */
export function htmlTokens(html: string): HtmlToken[] {
  const tokens: HtmlToken[] = [];
  let hidden = 0;
  // The parser hands a run of text over in pieces (a character reference is one): they are joined again.
  const pushText = (text: string) => {
    const last = tokens.at(-1);
    if (last?.kind === "text") {
      last.text += text;
    } else {
      tokens.push({ kind: "text", text });
    }
  };
  const breakLine = (name: string) => {
    if (!INLINE_ELEMENTS.has(name)) {
      pushText("\n");
    }
  };
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (HIDDEN_ELEMENTS.has(name)) {
          hidden++;
        } else if (hidden === 0) {
          tokens.push({ kind: "tag", name, attributes });
          breakLine(name);
        }
      },
      onclosetag(name) {
        if (HIDDEN_ELEMENTS.has(name)) {
          hidden = Math.max(0, hidden - 1);
          breakLine(name);
        } else if (hidden === 0) {
          breakLine(name);
        }
      },
      ontext(text) {
        if (hidden === 0) {
          pushText(text);
        }
      },
      oncomment() {
        breakLine("#comment");
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.end(html);
  return tokens;
}

/** The text a reader of an html body sees: tags removed (those that are not inline break the line), references decoded. */
export function htmlToText(html: string): string {
  return htmlTokens(html)
    .map((token) => (token.kind === "text" ? token.text : ""))
    .join("");
}
