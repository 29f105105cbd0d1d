import type { Command, CommandLineOption, EnvVariable, ValueOption } from "./option-definition.ts";
import { fileVariableOf } from "./option-definition.ts";
import type { CommandLineValues, OptionName } from "./option-table.ts";
import { optionEntries } from "./option-table.ts";
import { readSecretFile } from "./secret-file.ts";
import { UsageError } from "./usage-error.ts";

// Every option but a few typed for one command has a `PIGEONHOLE_*` variable (`--inbox-port` is
// `PIGEONHOLE_INBOX_PORT`). The rules, which `--help` and the docs repeat:
// - a variable set to the empty text counts as unset;
// - a value option's variable is read by the option's own parser; a repeatable option's holds its values separated
//   by commas (a domain or an address holds none);
// - a switch's variable is `true` or `1` (the flag given) or `false` or `0` (`--no-<flag>`), nothing else;
// - a secret's value may instead be in the file its `<variable>_FILE` variable names; giving both is refused;
// - a flag on the command line wins over its variable, and over the variable of an option it excludes.

type Env = Readonly<Record<string, string | undefined>>;

/** What a repeatable option's variable puts between its values. */
const LIST_SEPARATOR = ",";

/** The texts a switch's variable takes, and what each means. */
const SWITCH_TEXTS = new Map([
  ["true", true],
  ["1", true],
  ["false", false],
  ["0", false],
]);

function switchValue(text: string, variable: string): boolean {
  const value = SWITCH_TEXTS.get(text);
  if (value === undefined) {
    throw new UsageError(`${variable} takes true or 1 (on) or false or 0 (off), not '${text}'.`);
  }
  return value;
}

function listValue(option: ValueOption, text: string, variable: string): unknown[] {
  const items = text.split(LIST_SEPARATOR).map((item) => item.trim());
  if (items.includes("")) {
    throw new UsageError(`${variable} holds values separated by single commas, with none empty, not '${text}'.`);
  }
  return items.map((item) => option.parse(item, variable));
}

/** What sets an option in the environment: its variable's text, or a secret's file; none when neither is set. */
function givenText(option: CommandLineOption, variable: EnvVariable, env: Env) {
  const direct = env[variable.name] || undefined;
  const fileVariable = fileVariableOf(variable);
  const file = option.secret ? env[fileVariable] || undefined : undefined;
  if (direct !== undefined && file !== undefined) {
    throw new UsageError(`${variable.name} and ${fileVariable} both give --${option.flag}; set one of them.`);
  }
  if (file !== undefined) {
    return { text: readSecretFile(file, fileVariable), source: fileVariable };
  }
  return direct === undefined ? undefined : { text: direct, source: variable.name };
}

function readValue(option: CommandLineOption, text: string, source: string): unknown {
  if (option.kind === "switch") {
    return switchValue(text, source);
  }
  return option.repeatable ? listValue(option, text, source) : option.parse(text, source);
}

/**
 * The options of `command` that the environment sets, each read as its flag would be; a bad value throws a
 * `UsageError` naming the variable, and a secret's file that cannot be read a `SecretFileError`. Variables of other
 * commands' options are not read: `keys list` needs no relay password.
 */
export function readEnvironment(env: Env, command: Command): CommandLineValues {
  const values: Record<string, unknown> = {};
  for (const [name, option] of optionEntries()) {
    if (option.env === null || !option.commands.includes(command)) {
      continue;
    }
    const given = givenText(option, option.env, env);
    if (given !== undefined) {
      values[name] = readValue(option, given.text, given.source);
    }
  }
  // Each value above came from its option's parser (or is a switch's boolean), which is what CommandLineValues says.
  return values as CommandLineValues;
}

/** Options that exclude each other: a flag of one sets aside the variables of all, so that the command line wins. */
const EXCLUSIVE: readonly (readonly OptionName[])[] = [
  ["database", "memory"],
  ["smtp", "smtpPort"],
];

/** What the command line gave, and what the environment gave for the options it left out. */
export function withEnvironment(commandLine: CommandLineValues, environment: CommandLineValues): CommandLineValues {
  const fromEnvironment: CommandLineValues = { ...environment };
  for (const group of EXCLUSIVE) {
    if (group.some((name) => commandLine[name] !== undefined)) {
      for (const name of group) {
        delete fromEnvironment[name];
      }
    }
  }
  return { ...fromEnvironment, ...commandLine };
}
