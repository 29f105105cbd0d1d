/**
 * The deepest nesting of arrays and objects a request body may have. Every documented body is a few levels deep;
 * the bound keeps each later walk over a body (validation, checks, storage) short and far from the call stack's
 * limit, whatever the body's size.
 */
export const MAX_JSON_NESTING = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPENERS = new Set([0x5b, 0x7b]); // [ {
const CLOSERS = new Set([0x5d, 0x7d]); // ] }

/**
 * Whether JSON text nests arrays and objects deeper than `limit`, found in one pass over the text before it is
 * parsed (brackets inside strings do not count). Text that is not JSON is left for the parser to refuse.
 */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === BACKSLASH) {
        i++;
      } else if (code === QUOTE) {
        inString = false;
      }
    } else if (code === QUOTE) {
      inString = true;
    } else if (OPENERS.has(code)) {
      depth++;
      if (depth > limit) {
        return true;
      }
    } else if (CLOSERS.has(code)) {
      depth--;
    }
  }
  return false;
}
