import { readFileSync } from "node:fs";
import { createJsonLogger, warningsAndErrors } from "../logger.ts";
import type { ServerOptions } from "../options.ts";
import { isPostgresUrl } from "../storage/open-storage.ts";
import { databaseLocation } from "./database-location.ts";
import { DEFAULT_SMTP_PORT } from "./defaults.ts";
import type { CommandLineValues } from "./option-table.ts";
import { OPTIONS } from "./option-table.ts";
import { optionsSetAsGiven } from "./options-set-as-given.ts";
import { UsageError } from "./usage-error.ts";

type Env = Readonly<Record<string, string | undefined>>;

/** Refuses options given together that cannot be, before any file is read. */
function refuseContradictions(values: CommandLineValues, devKeys: boolean, env: Env): void {
  if ((values.smtpTlsCert === undefined) !== (values.smtpTlsKey === undefined)) {
    throw new UsageError("STARTTLS needs both --smtp-tls-cert and --smtp-tls-key.");
  }
  if (values.smtp === false && values.smtpPort !== undefined) {
    throw new UsageError("Use either --smtp-port or --no-smtp, not both.");
  }
  const dkim = [values.dkimDomain, values.dkimSelector, values.dkimKey];
  if (dkim.some((value) => value !== undefined) && dkim.some((value) => value === undefined)) {
    throw new UsageError("DKIM needs all of --dkim-domain, --dkim-selector and --dkim-key.");
  }
  if (values.testControl === false && values.testControlKey !== undefined) {
    throw new UsageError("Use either --test-control-key or --no-test-control, not both.");
  }
  const ownKey = values.testControlKey !== undefined || Boolean(env[OPTIONS.testControlKey.env.name]);
  if (testControlAsked(values) && !devKeys && !ownKey) {
    throw new UsageError(
      "--test-control without the development keys needs a key of its own: give --test-control-key <key> or PIGEONHOLE_TEST_CONTROL_KEY.",
    );
  }
}

const testControlAsked = (values: CommandLineValues) =>
  values.testControl === true || values.testControlKey !== undefined;

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
 * The `startServer` options of a `pigeonhole-server start` command line: those its options set as given, and those
 * it combines (the database, development keys, SMTP, TLS, DKIM, test control, the log).
 */
export function startOptions(values: CommandLineValues, env: Env = process.env): ServerOptions & { database: string } {
  if (values.database !== undefined && values.memory) {
    throw new UsageError("Use either --database or --memory, not both.");
  }
  const database = values.memory ? ":memory:" : databaseLocation(values, env);
  // A production database gets no development keys unless asked for; the local default keeps them.
  const devKeys = values.devKeys ?? !isPostgresUrl(database);
  refuseContradictions(values, devKeys, env);
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
    testControl:
      values.testControl === false ? false : testControlAsked(values) ? { key: values.testControlKey } : undefined,
  };
}
