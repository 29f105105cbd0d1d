import type { ServerLimits, ServerOptions } from "../options.ts";

/** The commands an option is given to, each a section of `--help`; an option of none (`--help`) goes with any. */
export type Command = "start" | "keys";

/** The `startServer` option that a command-line option sets unchanged: a property of `ServerOptions` or of its limits. */
export type ServerOptionPath = keyof ServerOptions | `limits.${keyof ServerLimits}`;

/**
 * The environment variable that stands for an option (see environment.ts for how each kind of option reads it). A flag
 * given on the command line wins over its variable.
 */
export interface EnvVariable {
  /** `PIGEONHOLE_` and the flag in capitals, `-` as `_`; or the older name an existing variable keeps. */
  readonly name: `PIGEONHOLE_${string}`;
  /** What `--help` and the docs add after the variable's name, when there is more to it. */
  readonly note?: string;
}

/** An option's default as the documentation gives it. */
export type OptionDefault<T> =
  /** A value used when the option is not given; `shown` writes it otherwise (`./pigeonhole.db`). */
  | { readonly value: T; readonly shown?: string }
  /** A default that depends on other options, in words (Markdown). */
  | { readonly shown: string };

interface OptionFields {
  /** The flag without its dashes: `inbox-port` for `--inbox-port`. */
  readonly flag: string;
  /** A one-letter flag of the same option (`h` for `-h`). */
  readonly short?: string;
  /** An older name of the flag, still accepted (`db` for `--db`); giving both is refused. */
  readonly formerFlag?: string;
  /**
   * The variable that stands for it; null for what only makes sense typed for one command (`--help`, the keys
   * commands' `--service`).
   */
  readonly env: EnvVariable | null;
  /**
   * Its value is a secret (a password, a key): besides its variable, the file a `<variable>_FILE` variable names may
   * hold it, so that it appears neither in the process list nor in the environment.
   */
  readonly secret?: true;
  readonly commands: readonly Command[];
  /**
   * What it does, in Markdown: `--help` shows it without the backticks of its code spans, and adds whether it repeats
   * and its default.
   */
  readonly help: string;
  /** What someone running it in production should know; the options that have one make the deployment guide's table. */
  readonly deployment?: string;
  /** The `startServer` option it sets as given, if any; the others are combined by the CLI (`--memory`, `--quiet`). */
  readonly sets?: ServerOptionPath;
}

/** An option that takes a value: `--inbox-port 4011`. */
export interface ValueOption<T = unknown> extends OptionFields {
  readonly kind: "value";
  /** How `--help` names its value: `<port>`, `inbox|forum`. */
  readonly argument: string;
  /**
   * Reads the text given for it; throws a `UsageError` that names `source` when it cannot: the flag (`--inbox-port`)
   * or the variable (`PIGEONHOLE_INBOX_PORT`) the text came from.
   */
  readonly parse: (text: string, source: string) => T;
  /** Given several times, it keeps each value (`--domain a.test --domain b.test`). */
  readonly repeatable?: boolean;
  readonly default?: OptionDefault<T | readonly T[]>;
}

/** An option that is on when given: `--memory`. */
export interface SwitchOption extends OptionFields {
  readonly kind: "switch";
  /** `also`: `--no-<flag>` turns off what may be on by default; `only`: the option is `--no-<flag>` alone. */
  readonly negation?: "also" | "only";
  /** Left out for a switch that is simply off unless given. */
  readonly default?: OptionDefault<boolean>;
}

export type CommandLineOption = ValueOption | SwitchOption;

/** The options of the command line by name. */
export type OptionTable = Readonly<Record<string, CommandLineOption>>;

/** What an option of the table reads from the command line: its parser's result (a list when it repeats), or a switch. */
export type ValueOf<Option> = Option extends { readonly kind: "value"; readonly parse: (...args: never[]) => infer T }
  ? Option extends { readonly repeatable: true }
    ? T[]
    : T
  : boolean;

/** What a command line gave, by option name: only the options it named. */
export type GivenOptions<Table extends OptionTable> = { -readonly [Name in keyof Table]?: ValueOf<Table[Name]> };

/** The variable named after an option's flag: `--inbox-port` is `PIGEONHOLE_INBOX_PORT`. */
export const variableNamedAfter = (flag: string): EnvVariable => ({
  name: `PIGEONHOLE_${flag.toUpperCase().replaceAll("-", "_")}`,
});

/** The variable that names the file holding a secret option's value: `PIGEONHOLE_SMTP_RELAY_FILE`. */
export const fileVariableOf = (variable: EnvVariable): `PIGEONHOLE_${string}` => `${variable.name}_FILE`;

type Described<Option extends CommandLineOption> = Omit<Option, "kind" | "env"> & { readonly env?: EnvVariable | null };

/** An option that takes a value; its variable is named after its flag unless it names another, or null. */
export const valueOption = <const Option extends Described<ValueOption>>(option: Option) => ({
  ...option,
  kind: "value" as const,
  env: option.env === undefined ? variableNamedAfter(option.flag) : option.env,
});

/** A switch; its variable is named after its flag unless it names another, or null. */
export const switchOption = <const Option extends Described<SwitchOption>>(option: Option) => ({
  ...option,
  kind: "switch" as const,
  env: option.env === undefined ? variableNamedAfter(option.flag) : option.env,
});
