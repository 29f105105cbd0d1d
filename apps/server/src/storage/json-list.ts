import { sql } from "kysely";

/**
 * `column` is one of the values of a JSON array bound as one parameter. A list of any length then makes one
 * statement, which SQLite prepares once, where `in (?, ?, ...)` would make one per length.
 */
export const inJsonList = (column: string, list: string) =>
  sql<boolean>`${sql.ref(column)} in (select value from json_each(${list}))`;

/** The opposite of {@link inJsonList}; an empty list excludes nothing. */
export const notInJsonList = (column: string, list: string) =>
  sql<boolean>`${sql.ref(column)} not in (select value from json_each(${list}))`;
