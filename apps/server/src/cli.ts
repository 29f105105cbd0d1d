// First: refuses an unsupported Node before anything below needs what only a supported Node has (node:sqlite).
import "./runtime-check.ts";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { systemClock } from "./clock.ts";
import { ApiKeys, UnknownPodError } from "./keys/api-keys.ts";
import { describeRevokedKey, formatKeyTable } from "./keys/key-table.ts";
import { AgentNameTakenError, InvalidAgentNameError, registerKey } from "./keys/register-key.ts";
import { createJsonLogger, errorFields, logProcessWarningsAndCrashes } from "./logger.ts";
import { describeRelay } from "./mail/outbound/relay-transport.ts";
import { parseCommandLine } from "./options/command-line.ts";
import { databaseLocation } from "./options/database-location.ts";
import { DEFAULT_DOMAINS, DEFAULT_TEST_CONTROL_KEY } from "./options/defaults.ts";
import { readEnvironment, withEnvironment } from "./options/environment.ts";
import type { CommandLineValues } from "./options/option-table.ts";
import { SecretFileError } from "./options/secret-file.ts";
import { startOptions } from "./options/start-options.ts";
import { USAGE } from "./options/usage.ts";
import { UsageError } from "./options/usage-error.ts";
import { InvalidOptionError } from "./options.ts";
import { startServer } from "./server.ts";
import { DatabaseRefusedError, DatabaseUnreachableError } from "./storage/database-wait.ts";
import { KEY_ID } from "./storage/keys/key-id.ts";
import { isPostgresUrl, openStorage } from "./storage/open-storage.ts";
import { redactPassword } from "./storage/postgres/open-postgres.ts";

class MissingDatabaseError extends Error {
  override name = "MissingDatabaseError";
}

class UnknownKeyError extends Error {
  override name = "UnknownKeyError";
}

/** A failure to start other than a mistake of the command line: reported as a JSON line, as the server reports. */
class StartFailedError extends Error {
  override name = "StartFailedError";
}

const asStartFailure = (error: unknown): never => {
  throw error instanceof UsageError ? error : new StartFailedError("The server could not start.", { cause: error });
};

const print = (text: string) => process.stdout.write(`${text}\n`);

/** How the banner names the database: never with its password. */
const describeDatabase = (location: string) =>
  location === ":memory:" ? "in memory" : isPostgresUrl(location) ? redactPassword(location) : location;

async function start(commandLine: CommandLineValues) {
  const options = startOptions(commandLine, readEnvironment(process.env, "start"));
  // From here on, every line on stderr is JSON: the server's, these, and Node's own warnings and crashes.
  const logger = options.logger || createJsonLogger();
  logProcessWarningsAndCrashes(logger);
  const server = await startServer(options);
  // Before the banner: whoever reads the addresses may stop the server at once, and must get a clean stop.
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.warn("second signal: exiting without waiting for the stop", { signal });
      process.exit(1);
    }
    stopping = true;
    logger.info("signal received; stopping", { signal });
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error("could not stop cleanly", errorFields(error, { withStack: true }));
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);

  print("Pigeonhole server is running.");
  print("");
  const key = (apiKey: string | null) => (apiKey === null ? "" : `   key: ${apiKey}`);
  print(`  Inbox API  ${server.inbox.url}${key(server.inbox.apiKey)}`);
  print(`  Forum API  ${server.forum.url}${key(server.forum.apiKey)}`);
  if (server.smtp) {
    print(`  SMTP       ${server.smtp.url}   mail for: ${(options.domains ?? DEFAULT_DOMAINS).join(", ")}`);
  }
  const relay = options.smtpRelay;
  print(`  Outbound   ${relay === undefined ? "kept, not sent (no --smtp-relay)" : `through ${describeRelay(relay)}`}`);
  print(`  Database   ${describeDatabase(options.database)}`);
  if (server.metrics) {
    print(`  Metrics    ${server.metrics.url}`);
  }
  const control = server.testControl;
  // A key of one's own is a secret: only the well-known default is printed.
  const controlKey = control?.key === DEFAULT_TEST_CONTROL_KEY ? `   key: ${control.key}` : "";
  print(`  Test       ${control ? `${control.baseUrl}/_test${controlKey}` : "test control off"}`);
  if (server.inbox.apiKey === null) {
    print("  API keys   create them with: pigeonhole-server keys create --service inbox|forum --database <url>");
  }
  print("");
  print("Press Ctrl+C to stop.");
}

/** Runs `use` on the keys of the database the keys commands name, which must exist unless `--create-db`. */
async function withKeys<T>(values: CommandLineValues, use: (apiKeys: ApiKeys) => Promise<T>): Promise<T> {
  const database = databaseLocation(values);
  // A key in a new, empty file is a key no running server knows: a mistyped --database must not make one silently.
  if (!isPostgresUrl(database) && !values.createDb && !existsSync(database)) {
    throw new MissingDatabaseError(
      `No database at ${database}. Point --database at the file the server runs on, or add --create-db to create it.`,
    );
  }
  const storage = await openStorage(database, { poolSize: 1 });
  try {
    return await use(new ApiKeys(storage.keys, systemClock));
  } finally {
    await storage.close();
  }
}

async function createKey(values: CommandLineValues) {
  const service = values.service;
  if (service !== "inbox" && service !== "forum") {
    throw new UsageError("keys create needs --service inbox or --service forum.");
  }
  if (values.name !== undefined && service !== "forum") {
    throw new UsageError("--name is the name of a forum agent; use it with --service forum.");
  }
  if (values.pod !== undefined && service !== "inbox") {
    throw new UsageError("--pod names the pod of an inbox key; use it with --service inbox.");
  }
  print(await withKeys(values, (apiKeys) => registerKey(apiKeys, service, { name: values.name, podId: values.pod })));
}

async function listKeys(values: CommandLineValues) {
  const service = values.service;
  if (service !== undefined && service !== "inbox" && service !== "forum") {
    throw new UsageError("keys list takes --service inbox or --service forum, or lists both without it.");
  }
  print(formatKeyTable(await withKeys(values, (apiKeys) => apiKeys.listKeys(service))));
}

async function revokeKey(values: CommandLineValues, keyOrId: string | undefined) {
  if (keyOrId === undefined || keyOrId.trim() === "") {
    throw new UsageError("keys revoke needs the key's id (from keys list) or the key itself.");
  }
  const revoked = await withKeys(values, (apiKeys) => apiKeys.revoke(keyOrId));
  if (!revoked) {
    // A key given itself is a secret: it is not repeated.
    const named = KEY_ID.test(keyOrId) ? ` ${keyOrId}` : "";
    throw new UnknownKeyError(
      `No key${named} to revoke: give a key id that keys list shows, or the key itself. It may be revoked already.`,
    );
  }
  print(describeRevokedKey(revoked));
}

async function main(argv: string[]) {
  const { values, positionals } = parseCommandLine(argv);
  if (values.help) {
    print(USAGE);
    return;
  }
  if (values.version) {
    const { version } = createRequire(import.meta.url)("../package.json") as { version: string };
    print(version);
    return;
  }
  const command = positionals.join(" ");
  // The keys commands read the variables of their own options only (the database's).
  const keysValues = () => withEnvironment(values, readEnvironment(process.env, "keys"));
  if (command === "" || command === "start") {
    await start(values).catch(asStartFailure);
  } else if (command === "keys create") {
    await createKey(keysValues());
  } else if (command === "keys list") {
    await listKeys(keysValues());
  } else if (positionals[0] === "keys" && positionals[1] === "revoke" && positionals.length <= 3) {
    await revokeKey(keysValues(), positionals[2]);
  } else {
    throw new UsageError(`Unknown command '${command}'.`);
  }
}

/** Errors whose message says all there is to say: no stack trace follows them. */
const isExplained = (error: unknown): boolean =>
  error instanceof UsageError ||
  error instanceof InvalidOptionError ||
  error instanceof MissingDatabaseError ||
  error instanceof SecretFileError ||
  error instanceof UnknownKeyError ||
  error instanceof UnknownPodError ||
  error instanceof AgentNameTakenError ||
  error instanceof InvalidAgentNameError ||
  error instanceof DatabaseUnreachableError ||
  error instanceof DatabaseRefusedError ||
  Boolean((error as { code?: string } | null | undefined)?.code);

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof StartFailedError) {
    const withStack = !isExplained(error.cause);
    createJsonLogger().error("server could not start", errorFields(error.cause, { withStack }));
    process.exit(1);
  }
  const known = isExplained(error);
  process.stderr.write(`pigeonhole-server: ${error instanceof Error ? error.message : String(error)}\n`);
  if (error instanceof UsageError || (error as { code?: string }).code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") {
    process.stderr.write(`\n${USAGE}`);
  } else if (!known && error instanceof Error && error.stack) {
    process.stderr.write(`${error.stack}\n`);
  }
  process.exit(error instanceof UsageError ? 2 : 1);
});
