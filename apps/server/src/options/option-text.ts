import type { CommandLineOption } from "./option-definition.ts";

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

/** Markdown as a terminal shows it: code spans without their backticks. */
export const plain = (markdown: string): string => markdown.replaceAll("`", "");
