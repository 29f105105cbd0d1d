import fc from "fast-check";

/**
 * The pattern's source without its lookarounds (`(?=...)`, `(?!...)`, `(?<=...)`, `(?<!...)`), which fast-check's
 * `stringMatching` cannot draw from. Escapes and character classes are stepped over, so a `(` inside them counts for
 * nothing.
 */
export function withoutLookarounds(source: string): string {
  let out = "";
  let index = 0;
  while (index < source.length) {
    if (/^\(\?<?[=!]/.test(source.slice(index, index + 4))) {
      index = closingParenthesis(source, index) + 1;
      continue;
    }
    const step = tokenLength(source, index);
    out += source.slice(index, index + step);
    index += step;
  }
  return out;
}

/** The length of the token at `index`: an escape, a whole character class, or one character. */
function tokenLength(source: string, index: number): number {
  if (source[index] === "\\") {
    return 2;
  }
  if (source[index] !== "[") {
    return 1;
  }
  let end = index + 1;
  while (end < source.length && source[end] !== "]") {
    end += source[end] === "\\" ? 2 : 1;
  }
  return end - index + 1;
}

function closingParenthesis(source: string, open: number): number {
  let depth = 0;
  let index = open;
  while (index < source.length) {
    if (source[index] === "(") {
      depth++;
    } else if (source[index] === ")" && --depth === 0) {
      return index;
    }
    index += tokenLength(source, index);
  }
  return source.length;
}

/**
 * Texts matching `pattern`. A pattern with lookarounds is drawn without them, and only the texts the whole pattern
 * takes are kept.
 */
export function stringsMatching(pattern: RegExp): fc.Arbitrary<string> {
  const plain = withoutLookarounds(pattern.source);
  if (plain === pattern.source) {
    return fc.stringMatching(pattern);
  }
  return fc.stringMatching(new RegExp(plain, pattern.flags)).filter((text) => pattern.test(text));
}
