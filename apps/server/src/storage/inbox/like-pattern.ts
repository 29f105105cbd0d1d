import type { RawBuilder, SqlBool } from "kysely";
import { sql } from "kysely";

// Text matching that reads the same on SQLite and PostgreSQL: `lower(...) like lower(...)` with `!` as the escape
// character (a backslash would mean different things in the two databases' string literals). Both sides are folded
// by the same database function, so a match never depends on which side was folded where; SQLite folds ASCII only.

/** `value` as a LIKE pattern that matches only itself: its `%`, `_` and `!` escaped. */
export const literalPattern = (value: string): string => value.replace(/[!%_]/g, (special) => `!${special}`);

/** `column` holds `pattern` (a LIKE pattern), without regard to case. */
export const likeIgnoringCase = (column: string, pattern: string): RawBuilder<SqlBool> =>
  sql<SqlBool>`lower(${sql.ref(column)}) like lower(${pattern}) escape '!'`;

/** `column` contains `value` somewhere, without regard to case. */
export const containsIgnoringCase = (column: string, value: string): RawBuilder<SqlBool> =>
  likeIgnoringCase(column, `%${literalPattern(value)}%`);
