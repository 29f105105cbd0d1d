import { DEFAULT_FORUM_DEV_KEY, DEFAULT_INBOX_DEV_KEY } from "./defaults.ts";
import type { Command, CommandLineOption } from "./option-definition.ts";
import { variableNamedAfter } from "./option-definition.ts";
import { OPTIONS, optionEntries } from "./option-table.ts";
import { defaultOf, plain, synopsis, variableOf } from "./option-text.ts";

/** Lines of `--help` are at most this long, and each option's help starts at this column. */
const WIDTH = 117;
const HELP_COLUMN = 37;

/** Breaks text into lines of at most `width` characters, between words. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line !== "" && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line === "" ? word : `${line} ${word}`;
    }
  }
  return [...lines, line];
}

/** An option's help, with whether it repeats, its variable and its default. */
function describe(option: CommandLineOption): string {
  const shownDefault = defaultOf(option);
  const variable = variableOf(option);
  const notes = [
    ...(option.kind === "value" && option.repeatable ? ["repeatable"] : []),
    ...(variable === undefined ? [] : [variable]),
    ...(shownDefault === undefined ? [] : [`default ${shownDefault}`]),
  ];
  return plain(notes.length === 0 ? option.help : `${option.help} (${notes.join("; ")})`);
}

/** An option's lines: its flags, then its help from the help column (on the next line when the flags reach it). */
function optionLines(option: CommandLineOption): string[] {
  const flags = `  ${synopsis(option)}`;
  const indent = " ".repeat(HELP_COLUMN);
  const [first, ...rest] = wrap(describe(option), WIDTH - HELP_COLUMN);
  const head = flags.length < HELP_COLUMN ? [`${flags.padEnd(HELP_COLUMN)}${first}`] : [flags, `${indent}${first}`];
  return [...head, ...rest.map((line) => `${indent}${line}`)];
}

/** The options given to exactly these commands, under a title. */
function section(title: string, commands: readonly Command[]): string {
  const options = optionEntries()
    .map(([, option]) => option)
    .filter(
      (option) => option.commands.length === commands.length && commands.every((c) => option.commands.includes(c)),
    );
  return [`${title}:`, ...options.flatMap(optionLines)].join("\n");
}

const optional = (option: CommandLineOption) => `[${synopsis(option)}]`;
const { database, service, name, pod, createDb } = OPTIONS;

const COMMANDS = `Usage:
  pigeonhole-server [start] [options]     run the Inbox API and the Forum API
  pigeonhole-server keys create ${synopsis(service)} ${optional(name)} ${optional(pod)}
                    ${optional(database)} ${optional(createDb)}
                                           register a new API key (a new pod, a second key of a pod, or a new forum
                                           agent) and print it
  pigeonhole-server keys list ${optional(service)} ${optional(database)}
                                           list the keys: id, service, pod (inbox) or agent (forum), creation, and
                                           whether it is a development key; never the keys, which are stored hashed
  pigeonhole-server keys revoke <key id or key> ${optional(database)}
                                           revoke a key (an inbox key is deleted; a forum agent keeps its content);
                                           every running server refuses it within a second`;

const KEY_ROTATION = `Rotating an inbox key without downtime: create a second key for its pod
  (pigeonhole-server keys create --service inbox --pod <pod id>, the pod id from keys list), give your clients the
  new key, then revoke the old one (pigeonhole-server keys revoke <key id>). Both keys open the pod until then.`;

/**
 * How variables set options (environment.ts), those not named after their flag, the development keys' (which stand
 * for no option), and the older names of flags.
 */
function environment(): string {
  const options = optionEntries().map(([, option]) => option);
  const secrets = options.flatMap((option) => (option.secret && option.env !== null ? [`--${option.flag}`] : []));
  const rules = [
    "Each option's variable is named in its help, after its flag (--inbox-port: PIGEONHOLE_INBOX_PORT); a flag",
    "given wins over its variable, and an empty variable counts as unset. A switch's variable takes true or 1 (the",
    "flag) or false or 0 (--no-<flag>); a repeatable option's takes its values separated by commas. A secret",
    `(${secrets.join(", ")}) may instead be in the file its _FILE variable names, which keeps it out of the process`,
    "list and the environment.",
  ].join(" ");
  const variables = options.flatMap(({ env, flag }) =>
    env !== null && env.name !== variableNamedAfter(flag).name ? [`${env.name} stands for --${flag}.`] : [],
  );
  const devKeys =
    "PIGEONHOLE_INBOX_API_KEY and PIGEONHOLE_FORUM_API_KEY set the development keys " +
    `(default ${DEFAULT_INBOX_DEV_KEY} and ${DEFAULT_FORUM_DEV_KEY}).`;
  const formerFlags = options.flatMap(({ formerFlag, flag }) =>
    formerFlag === undefined ? [] : [`--${formerFlag} is the older name of --${flag}.`],
  );
  return wrap(`Environment: ${[rules, ...variables, devKeys, ...formerFlags].join(" ")}`, WIDTH).join("\n");
}

/** What `pigeonhole-server --help` prints, and a command line it cannot run after its error. */
export const USAGE = `${[
  COMMANDS,
  section("Options of start and of the keys commands", ["start", "keys"]),
  section("Options of keys create, keys list and keys revoke", ["keys"]),
  KEY_ROTATION,
  section("Options of start", ["start"]),
  section("Options of any command", []),
  environment(),
].join("\n\n")}\n`;
