/** A segment of a path as a pattern compares it: URL-decoded, or as sent when it does not decode. */
const decodeSegment = (segment: string): string => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
};

const segmentsOf = (path: string): string[] => path.split("/").slice(1);

/**
 * Whether a request path matches a fault's path pattern, segment by segment: `*` stands for any one segment, `**`
 * for any number of them (none included), and every other segment for itself, case-sensitively.
 */
export function matchesPathPattern(pattern: string, path: string): boolean {
  const wanted = segmentsOf(pattern);
  const actual = segmentsOf(path).map(decodeSegment);
  // matches[j]: whether the pattern's segments so far match the first j segments of the path.
  let matches = Array.from({ length: actual.length + 1 }, (_, j) => j === 0);
  for (const segment of wanted) {
    const next = new Array<boolean>(actual.length + 1).fill(false);
    for (let j = 0; j <= actual.length; j++) {
      if (segment === "**") {
        next[j] = matches[j] === true || (j > 0 && next[j - 1] === true);
      } else if (j > 0 && matches[j - 1]) {
        next[j] = segment === "*" || segment === actual[j - 1];
      }
    }
    matches = next;
  }
  return matches[actual.length] === true;
}
