import { htmlToText } from "./html-text.ts";

/** A word: letters, digits and underscores, as far as they go. */
const WORD = /[\p{L}\p{N}_]+/gu;
const DIGITS = /^[0-9]{4,8}$/;
/** Upper-case letters and digits, with at least one of each (all digits is the rule above). */
const MIXED = /^(?=[A-Z0-9]*[0-9])(?=[A-Z0-9]*[A-Z])[A-Z0-9]{6,10}$/;

/**
 * What holds URLs and addresses, whose parts are never codes: they are blanked before the search. An address is
 * only looked for from the start of a run of its characters (the lookbehind), so a long run without `@` is scanned
 * once, not once from each of its characters (quadratic in the length of the body).
 */
const LINK_OR_ADDRESS = /\b(?:https?:\/\/|www\.)[^\s<>"']+|(?<![^\s<>"'@])[^\s<>"'@]+@[^\s<>"'@]+/gi;

/**
 * What joins a word to its neighbour into something larger (a date, a time, an amount, a version, a reference, the
 * groups of a phone number): a code stands alone, so a candidate next to one of these is not taken.
 */
const JOINED_BEFORE = /(?:[-/\\#+$\u20ac\u00a3\u00a5~=&%^|]|[\p{L}\p{N}]\.|\p{N}[:,]|\p{N}\)?[ \t\u00a0])$/u;
const JOINED_AFTER = /^(?:[-/\\%\u20ac$\u00a3\u00a5~=&^|\u00b0]|[.:,][\p{L}\p{N}]|[ \t\u00a0]\(?\p{N})/u;

const MONTHS = "jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec";
/** A year after a month, a day, or a copyright sign is part of a date. */
const YEAR_CONTEXT = new RegExp(
  `(?:\\u00a9|\\(c\\)|copyright|\\b(?:${MONTHS})[a-z]*\\.?|\\b\\d{1,2}(?:st|nd|rd|th)?,)\\s*$`,
  "i",
);
const YEAR = /^(?:19|20)\d\d$/;

function standsAlone(text: string, start: number, end: number, word: string): boolean {
  // Only the characters on the same line matter: a code on a line of its own stands alone.
  const before =
    text
      .slice(Math.max(0, start - 24), start)
      .split(/[\r\n]/)
      .at(-1) ?? "";
  const after = text.slice(end, end + 3).split(/[\r\n]/)[0] ?? "";
  if (JOINED_BEFORE.test(before) || JOINED_AFTER.test(after)) {
    return false;
  }
  return !(YEAR.test(word) && YEAR_CONTEXT.test(before));
}

/** The one-time codes of a piece of text, in order. */
export function codesInText(text: string): string[] {
  const blanked = text.replace(LINK_OR_ADDRESS, (found) => " ".repeat(found.length));
  const codes: string[] = [];
  for (const match of blanked.matchAll(WORD)) {
    const [word] = match;
    if ((DIGITS.test(word) || MIXED.test(word)) && standsAlone(blanked, match.index, match.index + word.length, word)) {
      codes.push(word);
    }
  }
  return codes;
}

/**
 * The one-time codes of a message: runs of 4 to 8 digits, or of 6 to 10 upper-case letters and digits with both,
 * standing alone (not part of a URL, an address, a date, a time, a phone number or a longer word), from the text
 * body and then the html body's visible text, each once, in the order they first appear.
 */
export function extractCodes(message: { text: string | null; html: string | null }): string[] {
  return [...new Set([...codesInText(message.text ?? ""), ...codesInText(htmlToText(message.html ?? ""))])];
}
