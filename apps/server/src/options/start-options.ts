import { readFileSync } from "node:fs";
import { createJsonLogger, warningsAndErrors } from "../logger.ts";
import type { ServerOptions } from "../options.ts";
import { isPostgresUrl } from "../storage/open-storage.ts";
import { databaseLocation } from "./database-location.ts";
import { DEFAULT_SMTP_PORT } from "./defaults.ts";
import { withEnvironment } from "./environment.ts";
import type { CommandLineValues } from "./option-table.ts";
import { optionsSetAsGiven } from "./options-set-as-given.ts";
import { UsageError } from "./usage-error.ts";

/**
 * Whether test control was asked for (true), turned off (false), or left to its default (undefined). A key on the
 * command line asks for it; the key's variable does not, so that an environment holding the key turns nothing on.
 */
const testControlAsked = (commandLine: CommandLineValues, environment: CommandLineValues): boolean | undefined =>
  commandLine.testControl ?? (commandLine.testControlKey !== undefined ? true : environment.testControl);

/** Refuses options given together that cannot be, before any file is read. */
function refuseContradictions(
  values: CommandLineValues,
  commandLine: CommandLineValues,
  devKeys: boolean,
  testControl: boolean | undefined,
): void {
  if ((values.smtpTlsCert === undefined) !== (values.smtpTlsKey === undefined)) {
    throw new UsageError("STARTTLS needs both --smtp-tls-cert and --smtp-tls-key.");
  }
  if (values.smtp === false && values.smtpPort !== undefined) {
    throw new UsageError("Use either --smtp-port or --no-smtp (PIGEONHOLE_SMTP=false), not both.");
  }
  const dkim = [values.dkimDomain, values.dkimSelector, values.dkimKey];
  if (dkim.some((value) => value !== undefined) && dkim.some((value) => value === undefined)) {
    throw new UsageError("DKIM needs all of --dkim-domain, --dkim-selector and --dkim-key.");
  }
  if (commandLine.testControl === false && commandLine.testControlKey !== undefined) {
    throw new UsageError("Use either --test-control-key or --no-test-control, not both.");
  }
  if (testControl === true && !devKeys && values.testControlKey === undefined) {
    throw new UsageError(
      "--test-control without the development keys needs a key of its own: give --test-control-key <key>, " +
        "PIGEONHOLE_TEST_CONTROL_KEY or PIGEONHOLE_TEST_CONTROL_KEY_FILE.",
    );
  }
}

function smtpTls({ smtpTlsCert, smtpTlsKey }: CommandLineValues): ServerOptions["smtpTls"] {
  return smtpTlsCert !== undefined && smtpTlsKey !== undefined
    ? { cert: readFileSync(smtpTlsCert), key: readFileSync(smtpTlsKey) }
    : undefined;
}

function dkim({ dkimDomain, dkimSelector, dkimKey }: CommandLineValues): ServerOptions["dkim"] {
  return dkimDomain !== undefined && dkimSelector !== undefined && dkimKey !== undefined
    ? { domain: dkimDomain, selector: dkimSelector, privateKey: readFileSync(dkimKey, "utf8") }
    : undefined;
}

/**
 * The `startServer` options of a `pigeonhole-server start` command line and of the options its environment sets
 * (`readEnvironment`), the command line winning: those the options set as given, and those the CLI combines (the
 * database, development keys, SMTP, TLS, DKIM, test control, the log).
 */
export function startOptions(
  commandLine: CommandLineValues,
  environment: CommandLineValues = {},
): ServerOptions & { database: string } {
  const values = withEnvironment(commandLine, environment);
  if (values.database !== undefined && values.memory) {
    throw new UsageError("Use either --database or --memory (PIGEONHOLE_MEMORY), not both.");
  }
  const database = values.memory ? ":memory:" : databaseLocation(values);
  // A production database gets no development keys unless asked for; the local default keeps them.
  const devKeys = values.devKeys ?? !isPostgresUrl(database);
  const testControl = testControlAsked(commandLine, environment);
  refuseContradictions(values, commandLine, devKeys, testControl);
  return {
    ...optionsSetAsGiven(values),
    database,
    // The CLI receives mail unless told not to; startServer only when given a port.
    smtpPort: values.smtp === false ? undefined : (values.smtpPort ?? DEFAULT_SMTP_PORT),
    smtpTls: smtpTls(values),
    dkim: dkim(values),
    // Asked for by name, they may be exposed beyond loopback; by default only on it (see ServerOptions.host).
    devKeys: values.devKeys === true ? {} : devKeys ? undefined : false,
    logger: values.quiet ? warningsAndErrors(createJsonLogger()) : undefined,
    // Its key, when given, is among the options set as given (`testControlKey`).
    testControl: testControl === false ? false : testControl === true ? {} : undefined,
  };
}
