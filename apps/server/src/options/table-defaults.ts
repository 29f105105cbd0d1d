import type { OptionTable, ServerOptionPath } from "./option-definition.ts";
import { OPTIONS } from "./option-table.ts";

type Row = (typeof OPTIONS)[keyof typeof OPTIONS];

/** The rows that set a `startServer` option and give the value it takes when not given. */
type Defaulted = Extract<Row, { readonly sets: ServerOptionPath; readonly default: { readonly value: unknown } }>;

/** Each such option's default, by the `startServer` option it sets (`limits.<name>` for a limit). */
export type TableDefaults = {
  readonly [Path in Defaulted["sets"]]: Extract<Defaulted, { readonly sets: Path }>["default"]["value"];
};

/**
 * The defaults `resolveOptions` applies, read from the option table, so that an option's default is stated once, in
 * its row, and `--help`, the documentation and `startServer` cannot disagree about it.
 */
export const TABLE_DEFAULTS = Object.fromEntries(
  Object.values(OPTIONS as OptionTable).flatMap((row) =>
    row.sets !== undefined && row.default !== undefined && "value" in row.default
      ? [[row.sets, row.default.value]]
      : [],
  ),
) as TableDefaults;
