import type { ParseArgsOptionsConfig } from "node:util";
import { parseArgs } from "node:util";
import type { CommandLineOption, ValueOption } from "./option-definition.ts";
import type { CommandLineValues } from "./option-table.ts";
import { optionEntries } from "./option-table.ts";
import { UsageError } from "./usage-error.ts";

export interface CommandLine {
  /** The options given, read by their parsers. */
  values: CommandLineValues;
  /** The command: `keys create`, or nothing for start. */
  positionals: string[];
}

type RawValue = string | boolean | (string | boolean)[] | undefined;

/** The table as `parseArgs` takes it: each flag, and its older name when it has one. */
function parseArgsOptions(): ParseArgsOptionsConfig {
  const config: ParseArgsOptionsConfig = {};
  for (const [, option] of optionEntries()) {
    const type = option.kind === "value" ? "string" : "boolean";
    const multiple = option.kind === "value" && option.repeatable === true;
    config[option.flag] = { type, multiple, ...(option.short === undefined ? {} : { short: option.short }) };
    if (option.formerFlag !== undefined) {
      config[option.formerFlag] = { type, multiple };
    }
  }
  return config;
}

/** What the command line gave for an option, under its flag or its older name, not both. */
function rawValue(raw: Record<string, RawValue>, option: CommandLineOption): RawValue {
  const current = raw[option.flag];
  const former = option.formerFlag === undefined ? undefined : raw[option.formerFlag];
  if (current !== undefined && former !== undefined) {
    throw new UsageError(`--${option.formerFlag} is the older name of --${option.flag}; give one of them.`);
  }
  return current ?? former;
}

function read(option: ValueOption, text: string | boolean): unknown {
  // parseArgs hands a string option nothing but strings.
  return option.parse(String(text), `--${option.flag}`);
}

/**
 * Reads `pigeonhole-server`'s arguments by the option table: an unknown flag or a bad value throws (a `UsageError`
 * names the flag), so that nothing starts on a command line that says other than what was meant.
 */
export function parseCommandLine(argv: readonly string[]): CommandLine {
  const { values: raw, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    allowNegative: true,
    options: parseArgsOptions(),
  });
  const values: Record<string, unknown> = {};
  for (const [name, option] of optionEntries()) {
    const given = rawValue(raw, option);
    if (given === undefined) {
      continue;
    }
    values[name] =
      option.kind === "switch"
        ? given
        : Array.isArray(given)
          ? given.map((text) => read(option, text))
          : read(option, given);
  }
  // Each value above came from its option's parser, which is what CommandLineValues says of it.
  return { values: values as CommandLineValues, positionals };
}
