import type { CommandLineOption, EnvVariable, SwitchOption, ValueOption } from "./option-definition.ts";
import { fileVariableOf } from "./option-definition.ts";

/** The flags of an option as typed: `-h, --help`, `--dev-keys, --no-dev-keys`, `--no-smtp`. */
export function flagsOf(option: CommandLineOption): string[] {
  if (option.kind === "switch" && option.negation === "only") {
    return [`--no-${option.flag}`];
  }
  return [
    ...(option.short === undefined ? [] : [`-${option.short}`]),
    `--${option.flag}`,
    ...(option.kind === "switch" && option.negation === "also" ? [`--no-${option.flag}`] : []),
  ];
}

/** How usage names an option: its flags, and the value it takes (`--inbox-port <port>`). */
export const synopsis = (option: CommandLineOption): string =>
  `${flagsOf(option).join(", ")}${option.kind === "value" ? ` ${option.argument}` : ""}`;

const formatValue = (value: unknown): string => (Array.isArray(value) ? value.join(",") : String(value));

/** An option's default in Markdown: a value as code, as it would be typed; words as written. None when it has none. */
export function defaultOf(option: CommandLineOption): string | undefined {
  const given = option.default;
  if (given === undefined) {
    return undefined;
  }
  return "value" in given ? `\`${given.shown ?? formatValue(given.value)}\`` : given.shown;
}

const code = (text: string) => `\`${text}\``;

/** What a switch's variable says: the flag (`=true`), `--no-<flag>` (`=false`), or either. */
function switchVariable(option: SwitchOption, name: string): string {
  if (option.negation === "only") {
    return code(`${name}=false`);
  }
  return option.negation === "also" ? `${code(`${name}=true`)} or ${code("false")}` : code(`${name}=true`);
}

function valueVariable(option: ValueOption, variable: EnvVariable): string {
  if (option.secret) {
    return `${code(variable.name)} or ${code(fileVariableOf(variable))}`;
  }
  return option.repeatable ? `${code(variable.name)}, comma-separated` : code(variable.name);
}

/**
 * How an option's variable is set, in Markdown, by the rules of environment.ts: `PIGEONHOLE_INBOX_PORT`; a list's
 * values comma-separated; a secret's file variable; what a switch's variable says (`PIGEONHOLE_SMTP=false` for
 * `--no-smtp`). None for an option without a variable.
 */
export function variableOf(option: CommandLineOption): string | undefined {
  const { env } = option;
  if (env === null) {
    return undefined;
  }
  const how = option.kind === "switch" ? switchVariable(option, env.name) : valueVariable(option, env);
  return env.note === undefined ? how : `${how}, ${env.note}`;
}

/** Markdown as a terminal shows it: code spans without their backticks. */
export const plain = (markdown: string): string => markdown.replaceAll("`", "");
