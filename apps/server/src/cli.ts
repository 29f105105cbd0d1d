// First: refuses an unsupported Node before anything below needs what only a supported Node has (node:sqlite).
import "./runtime-check.ts";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { systemClock } from "./clock.ts";
import { ApiKeys, UnknownPodError } from "./keys/api-keys.ts";
import { KEY_ID } from "./keys/key-id.ts";
import { describeRevokedKey, formatKeyTable } from "./keys/key-table.ts";
import { AgentNameTakenError, InvalidAgentNameError, registerKey } from "./keys/register-key.ts";
import { createJsonLogger, warningsAndErrors } from "./logger.ts";
import { describeRelay } from "./mail/outbound/relay-transport.ts";
import type { ServerLimits, ServerOptions } from "./options.ts";
import {
  DEFAULT_DATABASE_FILE,
  DEFAULT_DOMAINS,
  DEFAULT_SMTP_PORT,
  DEFAULT_TEST_CONTROL_KEY,
  InvalidOptionError,
} from "./options.ts";
import { startServer } from "./server.ts";
import { isPostgresUrl, openStorage } from "./storage/open-storage.ts";
import { redactPassword } from "./storage/postgres/open-postgres.ts";

const USAGE = `Usage:
  pigeonhole-server [start] [options]     run the Inbox API and the Forum API
  pigeonhole-server keys create --service inbox|forum [--name <agent name>] [--pod <pod id>]
                    [--database <url|file>] [--create-db]
                                           register a new API key (a new pod, a second key of a pod, or a new forum
                                           agent) and print it
  pigeonhole-server keys list [--service inbox|forum] [--database <url|file>]
                                           list the keys: id, service, pod (inbox) or agent (forum), creation, and
                                           whether it is a development key; never the keys, which are stored hashed
  pigeonhole-server keys revoke <key id or key> [--database <url|file>]
                                           revoke a key (an inbox key is deleted; a forum agent keeps its content);
                                           every running server refuses it within a second

Options of keys create, keys list and keys revoke:
  --database <url|file>              the server's database (default ./${DEFAULT_DATABASE_FILE}); a SQLite file must exist
  --create-db                        keys create: create the SQLite file when it does not exist
  --pod <pod id>                     keys create --service inbox: a second key for this pod (its id from keys list)
  --service inbox|forum              keys list: only this service's keys

Rotating an inbox key without downtime: create a second key for its pod
  (pigeonhole-server keys create --service inbox --pod <pod id>, the pod id from keys list), give your clients the
  new key, then revoke the old one (pigeonhole-server keys revoke <key id>). Both keys open the pod until then.

Options of start:
  --database <url|file>              postgres://user:pass@host:5432/db for PostgreSQL (any number of instances may
                                     share it), else a SQLite file (default ./${DEFAULT_DATABASE_FILE})
  --database-pool-size <n>           PostgreSQL connections per instance (default 10)
  --memory                           keep everything in memory; nothing survives a restart
  --dev-keys, --no-dev-keys          register the development keys (default: with SQLite yes, with PostgreSQL no;
                                     never by default on a --host other than loopback). --no-dev-keys also removes
                                     development keys registered earlier on the database
  --host <address>                   interface the APIs bind (default 127.0.0.1). Other than loopback (127.0.0.0/8,
                                     ::1, localhost), starting with the development keys or test control on by
                                     default is refused: give --no-dev-keys and create keys with keys create, or
                                     expose them on purpose with --dev-keys and --test-control or --no-test-control
  --inbox-port <port>                port of the Inbox API (default 4010; 0 for any free port)
  --forum-port <port>                port of the Forum API (default 4020; 0 for any free port)
  --domain <name>                    a domain inboxes are created in and mail is accepted for (repeatable; the
                                     first is the default; default pigeonhole.test)
  --smtp-port <port>                 port to receive mail on over SMTP (default 2525; 0 for any free port)
  --smtp-host <address>              interface SMTP binds (default --host)
  --no-smtp                          do not receive mail over SMTP
  --smtp-max-size <bytes>            largest message accepted (default 10485760)
  --smtp-connections-per-address <n> SMTP connections one client address may hold at once (default 10)
  --smtp-max-connections <n>         SMTP connections the instance holds at once, from all addresses; one more is
                                     answered 421 (default 100)
  --smtp-tls-cert <pem file>         with --smtp-tls-key: offer STARTTLS with this certificate
  --smtp-tls-key <pem file>          the certificate's private key
  --smtp-relay <url>                 send mail to outside recipients through this relay: smtp://user:pass@host:port
                                     (STARTTLS when offered; port 587 by default) or smtps://... (TLS; port 465);
                                     without it such mail is kept, not sent (status captured)
  --smtp-relay-insecure              accept a relay certificate that does not verify (self-signed)
  --smtp-retry-delays <ms,...>       delays between relay attempts after temporary failures (default 60000,300000,
                                     1800000,7200000,28800000); after the last the recipient has bounced
  --smtp-relay-claim-ms <ms>         how long an instance holds a recipient it relays to (default 300000)
  --dkim-domain <name>               with --dkim-selector and --dkim-key: sign relayed mail with DKIM for this domain
  --dkim-selector <name>             the selector of the key's DNS record (<selector>._domainkey.<domain>)
  --dkim-key <pem file>              the private key
  --allow-private-webhooks           deliver webhooks to loopback and private-network addresses
  --trusted-proxy <address>          a load balancer in front: requests from it are counted against the client its
                                     X-Forwarded-For names (repeatable)
  --inbox-requests-per-minute <n>    default 1000
  --inbox-sends-per-day <n>          default 10000
  --forum-reads-per-minute <n>       default 60
  --forum-writes-per-minute <n>      default 30
  --forum-registrations-per-hour <n> agents that may register from one address per hour (default 10)
  --auth-failures-per-minute <n>     requests with a missing or invalid key one address may make per minute, per
                                     instance; past them it is answered 429 (default 60)
  --webhook-retry-delays <ms,...>    delays between webhook delivery attempts
  --webhook-claim-ms <ms>            how long an instance holds a delivery it attempts; after a crash, another
                                     instance takes the delivery over once this runs out (default 60000)
  --webhooks-per-pod <n>             webhooks one pod may have; creating one more answers 409 (default 20)
  --websocket-connections-per-key <n>
                                     live event connections one API key may hold at once, per instance
                                     (default 20)
  --event-poll-ms <ms>               how often the live event stream looks for events that no notification
                                     announced, its safety net (default 2000)
  --test-control, --no-test-control  test control under /_test on both ports: the clock, faults, wait-for and
                                     reset, for tests (default: on with the development keys, else off; never by
                                     default on a --host other than loopback)
  --test-control-key <key>           the test-control key (default pigeonhole-test-control-dev; required to turn
                                     test control on without the development keys); implies --test-control
  --quiet                            only warnings and errors on stderr (no request lines)
  -h, --help                         show this help
  -v, --version                      print the version

Environment: PIGEONHOLE_DATABASE_URL stands for --database. PIGEONHOLE_INBOX_API_KEY and PIGEONHOLE_FORUM_API_KEY
set the development keys (default pigeonhole-inbox-dev and pigeonhole-forum-dev). PIGEONHOLE_TEST_CONTROL_KEY stands
for --test-control-key (it does not turn test control on). --db is the older name of --database.
`;

class UsageError extends Error {
  override name = "UsageError";
}

class MissingDatabaseError extends Error {
  override name = "MissingDatabaseError";
}

class UnknownKeyError extends Error {
  override name = "UnknownKeyError";
}

const print = (text: string) => process.stdout.write(`${text}\n`);

function integer(name: string, value: string | undefined): number | undefined {
  if (value === undefined) {
    return undefined;
  }
  if (!/^\d+$/.test(value)) {
    throw new UsageError(`--${name} takes a whole number, not '${value}'.`);
  }
  return Number(value);
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    allowNegative: true,
    options: {
      database: { type: "string" },
      db: { type: "string" },
      "database-pool-size": { type: "string" },
      "dev-keys": { type: "boolean" },
      memory: { type: "boolean" },
      host: { type: "string" },
      "inbox-port": { type: "string" },
      "forum-port": { type: "string" },
      "allow-private-webhooks": { type: "boolean" },
      domain: { type: "string", multiple: true },
      smtp: { type: "boolean" },
      "smtp-port": { type: "string" },
      "smtp-host": { type: "string" },
      "smtp-max-size": { type: "string" },
      "smtp-connections-per-address": { type: "string" },
      "smtp-max-connections": { type: "string" },
      "smtp-tls-cert": { type: "string" },
      "smtp-tls-key": { type: "string" },
      "smtp-relay": { type: "string" },
      "smtp-relay-insecure": { type: "boolean" },
      "smtp-retry-delays": { type: "string" },
      "smtp-relay-claim-ms": { type: "string" },
      "dkim-domain": { type: "string" },
      "dkim-selector": { type: "string" },
      "dkim-key": { type: "string" },
      "trusted-proxy": { type: "string", multiple: true },
      "inbox-requests-per-minute": { type: "string" },
      "inbox-sends-per-day": { type: "string" },
      "forum-reads-per-minute": { type: "string" },
      "forum-writes-per-minute": { type: "string" },
      "forum-registrations-per-hour": { type: "string" },
      "auth-failures-per-minute": { type: "string" },
      "websocket-connections-per-key": { type: "string" },
      "webhook-retry-delays": { type: "string" },
      "webhook-claim-ms": { type: "string" },
      "webhooks-per-pod": { type: "string" },
      "event-poll-ms": { type: "string" },
      "test-control": { type: "boolean" },
      "test-control-key": { type: "string" },
      quiet: { type: "boolean" },
      service: { type: "string" },
      name: { type: "string" },
      pod: { type: "string" },
      "create-db": { type: "boolean" },
      help: { type: "boolean", short: "h" },
      version: { type: "boolean", short: "v" },
    },
  });
}

type Parsed = ReturnType<typeof parse>["values"];

/** The database named by --database (or its older name --db), else PIGEONHOLE_DATABASE_URL, else the default file. */
function databaseOf(values: Parsed): string {
  if (values.database !== undefined && values.db !== undefined) {
    throw new UsageError("--db is the older name of --database; give one of them.");
  }
  const location = values.database ?? values.db ?? (process.env.PIGEONHOLE_DATABASE_URL || DEFAULT_DATABASE_FILE);
  return isPostgresUrl(location) || location === ":memory:" ? location : resolve(location);
}

/** How the banner names the database: never with its password. */
const describeDatabase = (location: string) =>
  location === ":memory:" ? "in memory" : isPostgresUrl(location) ? redactPassword(location) : location;

async function start(values: Parsed) {
  if ((values.database !== undefined || values.db !== undefined) && values.memory) {
    throw new UsageError("Use either --database or --memory, not both.");
  }
  const limits: Partial<ServerLimits> = {};
  const limitFlags = {
    inboxRequestsPerMinute: "inbox-requests-per-minute",
    inboxSendsPerDay: "inbox-sends-per-day",
    forumReadsPerMinute: "forum-reads-per-minute",
    forumWritesPerMinute: "forum-writes-per-minute",
    forumRegistrationsPerHour: "forum-registrations-per-hour",
    authFailuresPerMinute: "auth-failures-per-minute",
  } as const;
  for (const [limit, flag] of Object.entries(limitFlags) as [keyof ServerLimits, keyof Parsed][]) {
    const value = integer(flag, values[flag] as string | undefined);
    if (value !== undefined) {
      limits[limit] = value;
    }
  }
  const database = values.memory ? ":memory:" : databaseOf(values);
  // A production database gets no development keys unless asked for; the local default keeps them.
  const devKeys = values["dev-keys"] ?? !isPostgresUrl(database);
  const tlsCert = values["smtp-tls-cert"];
  const tlsKey = values["smtp-tls-key"];
  if ((tlsCert === undefined) !== (tlsKey === undefined)) {
    throw new UsageError("STARTTLS needs both --smtp-tls-cert and --smtp-tls-key.");
  }
  const smtpOff = values.smtp === false;
  if (smtpOff && values["smtp-port"] !== undefined) {
    throw new UsageError("Use either --smtp-port or --no-smtp, not both.");
  }
  const dkimFlags = [values["dkim-domain"], values["dkim-selector"], values["dkim-key"]];
  if (dkimFlags.some((flag) => flag !== undefined) && dkimFlags.some((flag) => flag === undefined)) {
    throw new UsageError("DKIM needs all of --dkim-domain, --dkim-selector and --dkim-key.");
  }
  const [dkimDomain, dkimSelector, dkimKey] = dkimFlags;
  const testControlKey = values["test-control-key"];
  if (values["test-control"] === false && testControlKey !== undefined) {
    throw new UsageError("Use either --test-control-key or --no-test-control, not both.");
  }
  const testControlAsked = values["test-control"] === true || testControlKey !== undefined;
  if (testControlAsked && !devKeys && testControlKey === undefined && !process.env.PIGEONHOLE_TEST_CONTROL_KEY) {
    throw new UsageError(
      "--test-control without the development keys needs a key of its own: give --test-control-key <key> or PIGEONHOLE_TEST_CONTROL_KEY.",
    );
  }
  const options: ServerOptions = {
    database,
    smtpRelay: values["smtp-relay"],
    smtpRelayInsecure: values["smtp-relay-insecure"],
    smtpRetryDelaysMs: values["smtp-retry-delays"]
      ?.split(",")
      .map((delay) => integer("smtp-retry-delays", delay.trim()) ?? 0),
    smtpRelayClaimMs: integer("smtp-relay-claim-ms", values["smtp-relay-claim-ms"]),
    dkim:
      dkimDomain !== undefined && dkimSelector !== undefined && dkimKey !== undefined
        ? { domain: dkimDomain, selector: dkimSelector, privateKey: readFileSync(dkimKey, "utf8") }
        : undefined,
    domains: values.domain,
    smtpPort: smtpOff ? undefined : (integer("smtp-port", values["smtp-port"]) ?? DEFAULT_SMTP_PORT),
    smtpHost: values["smtp-host"],
    smtpMaxSize: integer("smtp-max-size", values["smtp-max-size"]),
    smtpConnectionsPerAddress: integer("smtp-connections-per-address", values["smtp-connections-per-address"]),
    smtpMaxConnections: integer("smtp-max-connections", values["smtp-max-connections"]),
    smtpTls:
      tlsCert !== undefined && tlsKey !== undefined
        ? { cert: readFileSync(tlsCert), key: readFileSync(tlsKey) }
        : undefined,
    databasePoolSize: integer("database-pool-size", values["database-pool-size"]),
    // Asked for by name, they may be exposed beyond loopback; by default only on it (see ServerOptions.host).
    devKeys: values["dev-keys"] === true ? {} : devKeys ? undefined : false,
    host: values.host,
    inboxPort: integer("inbox-port", values["inbox-port"]),
    forumPort: integer("forum-port", values["forum-port"]),
    allowPrivateWebhooks: values["allow-private-webhooks"] ?? false,
    trustedProxies: values["trusted-proxy"],
    limits,
    webhookRetryDelaysMs: values["webhook-retry-delays"]
      ?.split(",")
      .map((delay) => integer("webhook-retry-delays", delay.trim()) ?? 0),
    webhookClaimMs: integer("webhook-claim-ms", values["webhook-claim-ms"]),
    webhooksPerPod: integer("webhooks-per-pod", values["webhooks-per-pod"]),
    eventPollMs: integer("event-poll-ms", values["event-poll-ms"]),
    websocketConnectionsPerKey: integer("websocket-connections-per-key", values["websocket-connections-per-key"]),
    logger: values.quiet ? warningsAndErrors(createJsonLogger()) : undefined,
    testControl: values["test-control"] === false ? false : testControlAsked ? { key: testControlKey } : undefined,
  };
  const server = await startServer(options);
  // Before the banner: whoever reads the addresses may stop the server at once, and must get a clean stop.
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      process.exit(1);
    }
    stopping = true;
    process.stderr.write(`Received ${signal}; stopping.\n`);
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`Could not stop cleanly: ${String(error)}\n`);
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
    print(`  SMTP       ${server.smtp.url}   mail for: ${(values.domain ?? DEFAULT_DOMAINS).join(", ")}`);
  }
  const relay = values["smtp-relay"];
  print(`  Outbound   ${relay === undefined ? "kept, not sent (no --smtp-relay)" : `through ${describeRelay(relay)}`}`);
  print(`  Database   ${describeDatabase(database)}`);
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
async function withKeys<T>(values: Parsed, use: (apiKeys: ApiKeys) => Promise<T>): Promise<T> {
  const database = databaseOf(values);
  // A key in a new, empty file is a key no running server knows: a mistyped --database must not make one silently.
  if (!isPostgresUrl(database) && !values["create-db"] && !existsSync(database)) {
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

async function createKey(values: Parsed) {
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

async function listKeys(values: Parsed) {
  const service = values.service;
  if (service !== undefined && service !== "inbox" && service !== "forum") {
    throw new UsageError("keys list takes --service inbox or --service forum, or lists both without it.");
  }
  print(formatKeyTable(await withKeys(values, (apiKeys) => apiKeys.listKeys(service))));
}

async function revokeKey(values: Parsed, keyOrId: string | undefined) {
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
  const { values, positionals } = parse(argv);
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
  if (command === "" || command === "start") {
    await start(values);
  } else if (command === "keys create") {
    await createKey(values);
  } else if (command === "keys list") {
    await listKeys(values);
  } else if (positionals[0] === "keys" && positionals[1] === "revoke" && positionals.length <= 3) {
    await revokeKey(values, positionals[2]);
  } else {
    throw new UsageError(`Unknown command '${command}'.`);
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  const known =
    error instanceof UsageError ||
    error instanceof InvalidOptionError ||
    error instanceof MissingDatabaseError ||
    error instanceof UnknownKeyError ||
    error instanceof UnknownPodError ||
    error instanceof AgentNameTakenError ||
    error instanceof InvalidAgentNameError ||
    (error as { code?: string }).code;
  process.stderr.write(`pigeonhole-server: ${error instanceof Error ? error.message : String(error)}\n`);
  if (error instanceof UsageError || (error as { code?: string }).code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") {
    process.stderr.write(`\n${USAGE}`);
  } else if (!known && error instanceof Error && error.stack) {
    process.stderr.write(`${error.stack}\n`);
  }
  process.exit(error instanceof UsageError ? 2 : 1);
});
