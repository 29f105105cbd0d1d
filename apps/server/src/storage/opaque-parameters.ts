/**
 * Rewrites each `?` parameter of a statement as `(select ?)`.
 *
 * SQLite as better-sqlite3 builds it (with STAT4) prepares a statement again on every run when the value of a bound
 * parameter could change its plan: an equality on an indexed column before an ORDER BY, a join, a LIMIT. It then
 * plans the query afresh, and better-sqlite3 compiles a new row constructor, several microseconds per query. A
 * parameter inside a scalar subquery is opaque to the planner, so the statement keeps the plan it was prepared
 * with (the one a literal would get); values, types and results are the same.
 *
 * String literals, quoted identifiers and comments are copied unchanged; numbered parameters (`?1`) keep their number.
 */
export function opaqueParameters(sql: string): string {
  let out = "";
  let i = 0;
  while (i < sql.length) {
    const end = skipQuotedOrComment(sql, i);
    if (end > i) {
      out += sql.slice(i, end);
      i = end;
    } else if (sql[i] === "?") {
      let j = i + 1;
      while (j < sql.length && isDigit(sql.charCodeAt(j))) {
        j++;
      }
      out += `(select ${sql.slice(i, j)})`;
      i = j;
    } else {
      out += sql[i];
      i++;
    }
  }
  return out;
}

const isDigit = (code: number) => code >= 48 && code <= 57;

/** The index after a quoted string, identifier or comment starting at `start`, or `start` when none starts there. */
function skipQuotedOrComment(sql: string, start: number): number {
  const char = sql[start];
  if (char === "'" || char === '"' || char === "`") {
    // A quote is escaped by doubling it.
    let i = start + 1;
    while (i < sql.length) {
      if (sql[i] === char) {
        if (sql[i + 1] !== char) {
          return i + 1;
        }
        i += 2;
      } else {
        i++;
      }
    }
    return sql.length;
  }
  if (char === "[") {
    const close = sql.indexOf("]", start + 1);
    return close === -1 ? sql.length : close + 1;
  }
  if (char === "-" && sql[start + 1] === "-") {
    const newline = sql.indexOf("\n", start + 2);
    return newline === -1 ? sql.length : newline + 1;
  }
  if (char === "/" && sql[start + 1] === "*") {
    const close = sql.indexOf("*/", start + 2);
    return close === -1 ? sql.length : close + 2;
  }
  return start;
}
