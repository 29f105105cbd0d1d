import { DEFAULT_POOL_SIZE } from "../storage/open-storage.ts";
import {
  DEFAULT_CLAIM_LEASE_MS,
  DEFAULT_DATABASE_FILE,
  DEFAULT_DATABASE_WAIT_MS,
  DEFAULT_DOMAINS,
  DEFAULT_DRAFTS_PER_POD,
  DEFAULT_DRAIN_DELAY_MS,
  DEFAULT_EVENT_POLL_MS,
  DEFAULT_FORUM_PORT,
  DEFAULT_HOST,
  DEFAULT_INBOX_PORT,
  DEFAULT_LIMITS,
  DEFAULT_LIST_ENTRIES_PER_POD,
  DEFAULT_METRICS_HOST,
  DEFAULT_SMTP_CONNECTIONS_PER_ADDRESS,
  DEFAULT_SMTP_MAX_CONNECTIONS,
  DEFAULT_SMTP_MAX_SIZE,
  DEFAULT_SMTP_PORT,
  DEFAULT_SMTP_RELAY_CLAIM_MS,
  DEFAULT_SMTP_RETRY_DELAYS_MS,
  DEFAULT_TEST_CONTROL_KEY,
  DEFAULT_WEBHOOK_CLAIM_MS,
  DEFAULT_WEBHOOK_RETRY_DELAYS_MS,
  DEFAULT_WEBHOOKS_PER_POD,
  DEFAULT_WEBSOCKET_CONNECTIONS_PER_KEY,
} from "./defaults.ts";
import type { CommandLineOption, GivenOptions, OptionTable } from "./option-definition.ts";
import { switchOption, valueOption } from "./option-definition.ts";
import { heloName, text, wholeNumber, wholeNumbers } from "./option-parsers.ts";

/**
 * Every option of `pigeonhole-server`, described once. The command-line parser, `--help`, and the options tables of
 * the server's README and the deployment guide (`pnpm generate`) are made from it. In the order `--help` lists them.
 */
export const OPTIONS = {
  database: valueOption({
    flag: "database",
    formerFlag: "db",
    argument: "<url|file>",
    parse: text,
    // The name it had before every option had a variable.
    env: { name: "PIGEONHOLE_DATABASE_URL" },
    // A PostgreSQL URL may hold a password.
    secret: true,
    commands: ["start", "keys"],
    default: { value: DEFAULT_DATABASE_FILE, shown: `./${DEFAULT_DATABASE_FILE}` },
    help:
      "`postgres://user:pass@host:5432/db` for PostgreSQL (any number of instances may share it), else a SQLite file, " +
      "which start creates when missing and the keys commands need to exist",
    deployment: "a `postgres://` URL for more than one instance",
  }),
  service: valueOption({
    flag: "service",
    argument: "inbox|forum",
    parse: text,
    // Each keys command is typed for one service at a time; a variable would silently narrow every `keys list`.
    env: null,
    commands: ["keys"],
    help: "keys create: the service of the new key; keys list: only this service's keys",
  }),
  name: valueOption({
    flag: "name",
    argument: "<agent name>",
    parse: text,
    // Names one new agent: a variable would give every agent created the same name, the second refused.
    env: null,
    commands: ["keys"],
    default: { shown: "`agent-<random>`" },
    help: "keys create --service forum: the name of the new agent",
  }),
  pod: valueOption({
    flag: "pod",
    argument: "<pod id>",
    parse: text,
    // Names the pod of one new key: a variable would put every inbox key created in the same pod.
    env: null,
    commands: ["keys"],
    help: "keys create --service inbox: a second key for this pod (its id from `keys list`)",
  }),
  createDb: switchOption({
    flag: "create-db",
    // Creating a file is asked for once, on purpose: a variable would let a mistyped --database pass unnoticed.
    env: null,
    commands: ["keys"],
    help: "keys create: create the SQLite file when it does not exist",
  }),
  databasePoolSize: valueOption({
    flag: "database-pool-size",
    argument: "<n>",
    parse: wholeNumber,
    commands: ["start"],
    sets: "databasePoolSize",
    default: { value: DEFAULT_POOL_SIZE },
    help: "PostgreSQL connections per instance",
    deployment:
      "connections per instance, which opens 4 more (rate-limit counts, live events, the readiness check); keep " +
      "instances × (size + 4) under PostgreSQL's `max_connections` (100 by default), with room for other clients " +
      "such as `pg_dump`",
  }),
  databaseWaitMs: valueOption({
    flag: "database-wait-ms",
    argument: "<ms>",
    parse: wholeNumber,
    commands: ["start"],
    sets: "databaseWaitMs",
    default: { value: DEFAULT_DATABASE_WAIT_MS },
    help:
      "how long a start waits for a PostgreSQL that is not reachable yet (refused, not resolving, starting up), " +
      "trying again with backoff and logging each attempt; a refused login or a missing database fails at once; " +
      "`0` fails at the first attempt",
    deployment: "how long a start waits for PostgreSQL to come up (a machine booting); then it exits with an error",
  }),
  memory: switchOption({
    flag: "memory",
    commands: ["start"],
    help: "keep everything in memory; nothing survives a restart",
  }),
  devKeys: switchOption({
    flag: "dev-keys",
    negation: "also",
    commands: ["start"],
    default: { shown: "on with SQLite, off with PostgreSQL" },
    help:
      "register the development keys, on a `--host` other than loopback only when asked for by name; " +
      "`--no-dev-keys` also removes development keys registered earlier on the database",
    deployment: "`--no-dev-keys` on any interface but loopback; it removes the keys an earlier start registered",
  }),
  host: valueOption({
    flag: "host",
    argument: "<address>",
    parse: text,
    commands: ["start"],
    sets: "host",
    default: { value: DEFAULT_HOST },
    help:
      "interface the APIs bind. Other than loopback (127.0.0.0/8, `::1`, `localhost`), starting with the development " +
      "keys or test control on by default is refused: give `--no-dev-keys` and create keys with `keys create`, or " +
      "expose them on purpose with `--dev-keys` and `--test-control` or `--no-test-control`",
    deployment:
      "`0.0.0.0` when the balancer is on another machine; refused while development keys or test control would be " +
      "on by default",
  }),
  inboxPort: valueOption({
    flag: "inbox-port",
    argument: "<port>",
    parse: wholeNumber,
    commands: ["start"],
    sets: "inboxPort",
    default: { value: DEFAULT_INBOX_PORT },
    help: "port of the Inbox API; `0` for any free port",
    deployment: "one per instance on a machine",
  }),
  forumPort: valueOption({
    flag: "forum-port",
    argument: "<port>",
    parse: wholeNumber,
    commands: ["start"],
    sets: "forumPort",
    default: { value: DEFAULT_FORUM_PORT },
    help: "port of the Forum API; `0` for any free port",
    deployment: "one per instance on a machine",
  }),
  metricsPort: valueOption({
    flag: "metrics-port",
    argument: "<port>",
    parse: wholeNumber,
    commands: ["start"],
    sets: "metricsPort",
    default: { shown: "off" },
    help: "serve Prometheus metrics at `/metrics` on this port, apart from the APIs and without a key; `0` for any free port",
    deployment: "a port Prometheus scrapes; see [Monitoring](/guides/monitoring/)",
  }),
  metricsHost: valueOption({
    flag: "metrics-host",
    argument: "<address>",
    parse: text,
    commands: ["start"],
    sets: "metricsHost",
    default: { value: DEFAULT_METRICS_HOST },
    help: "interface the metrics listener binds (loopback whatever `--host` is: metrics take no key)",
    deployment: "an interface only Prometheus reaches, when it scrapes from another machine",
  }),
  domains: valueOption({
    flag: "domain",
    argument: "<name>",
    parse: text,
    repeatable: true,
    commands: ["start"],
    sets: "domains",
    default: { value: DEFAULT_DOMAINS },
    help: "a domain inboxes are created in and mail is accepted for; the first is the default of Create Inbox",
    deployment: "the domains inboxes live in (repeatable)",
  }),
  smtpPort: valueOption({
    flag: "smtp-port",
    argument: "<port>",
    parse: wholeNumber,
    commands: ["start"],
    default: { value: DEFAULT_SMTP_PORT },
    help: "port to receive mail on over SMTP; `0` for any free port",
    deployment: "one per instance on a machine; `--no-smtp` on those that receive no mail",
  }),
  smtpHost: valueOption({
    flag: "smtp-host",
    argument: "<address>",
    parse: text,
    commands: ["start"],
    sets: "smtpHost",
    default: { shown: "`--host`" },
    help: "interface SMTP binds",
  }),
  smtp: switchOption({
    flag: "smtp",
    negation: "only",
    commands: ["start"],
    help: "do not receive mail over SMTP",
  }),
  smtpMaxSize: valueOption({
    flag: "smtp-max-size",
    argument: "<bytes>",
    parse: wholeNumber,
    commands: ["start"],
    sets: "smtpMaxSize",
    default: { value: DEFAULT_SMTP_MAX_SIZE },
    help: "largest message accepted; a larger one is refused with 552",
  }),
  smtpConnectionsPerAddress: valueOption({
    flag: "smtp-connections-per-address",
    argument: "<n>",
    parse: wholeNumber,
    commands: ["start"],
    sets: "smtpConnectionsPerAddress",
    default: { value: DEFAULT_SMTP_CONNECTIONS_PER_ADDRESS },
    help: "SMTP connections one client address may hold at once",
  }),
  smtpMaxConnections: valueOption({
    flag: "smtp-max-connections",
    argument: "<n>",
    parse: wholeNumber,
    commands: ["start"],
    sets: "smtpMaxConnections",
    default: { value: DEFAULT_SMTP_MAX_CONNECTIONS },
    help: "SMTP connections the instance holds at once, from all addresses; one more is answered 421",
    deployment:
      "SMTP connections of each instance, from all addresses; with `--smtp-max-size`, what bounds the memory of mail " +
      "being received",
  }),
  smtpTlsCert: valueOption({
    flag: "smtp-tls-cert",
    argument: "<pem file>",
    parse: text,
    commands: ["start"],
    help: "with `--smtp-tls-key`: offer STARTTLS with this certificate",
  }),
  smtpTlsKey: valueOption({
    flag: "smtp-tls-key",
    argument: "<pem file>",
    parse: text,
    commands: ["start"],
    help: "the certificate's private key",
  }),
  smtpRelay: valueOption({
    flag: "smtp-relay",
    argument: "<url>",
    parse: text,
    // The URL may hold the relay's password.
    secret: true,
    commands: ["start"],
    sets: "smtpRelay",
    help:
      "send mail to outside recipients through this relay: `smtp://user:pass@host:port` (STARTTLS when offered; port " +
      "587 by default) or `smtps://...` (TLS; port 465); without it such mail is kept, not sent (status `captured`)",
    deployment:
      "the relay's URL; with a password in it, give it in a file (`PIGEONHOLE_SMTP_RELAY_FILE`), out of the process " +
      "list and the environment",
  }),
  smtpRelayInsecure: switchOption({
    flag: "smtp-relay-insecure",
    commands: ["start"],
    sets: "smtpRelayInsecure",
    help: "accept a relay certificate that does not verify (self-signed)",
  }),
  smtpHeloName: valueOption({
    flag: "smtp-helo-name",
    argument: "<host name>",
    parse: heloName,
    commands: ["start"],
    sets: "smtpHeloName",
    default: { shown: "the first `--domain` given, else the machine's host name" },
    help: "the name the server gives itself in `EHLO`/`HELO` to the relay",
    deployment: "a name of the sending machine that resolves in DNS: many relays refuse a greeting that does not",
  }),
  smtpRetryDelaysMs: valueOption({
    flag: "smtp-retry-delays",
    argument: "<ms,...>",
    parse: wholeNumbers,
    commands: ["start"],
    sets: "smtpRetryDelaysMs",
    default: { value: DEFAULT_SMTP_RETRY_DELAYS_MS },
    help: "delays between relay attempts after temporary failures; after the last the recipient has bounced",
  }),
  smtpRelayClaimMs: valueOption({
    flag: "smtp-relay-claim-ms",
    argument: "<ms>",
    parse: wholeNumber,
    commands: ["start"],
    sets: "smtpRelayClaimMs",
    default: { value: DEFAULT_SMTP_RELAY_CLAIM_MS },
    help:
      "the longest an instance holds a recipient for one relay attempt: its claim is renewed (`--claim-lease-ms`) " +
      "until then at most; each command to the relay times out after a tenth of this, 30 s at most",
  }),
  dkimDomain: valueOption({
    flag: "dkim-domain",
    argument: "<name>",
    parse: text,
    commands: ["start"],
    help: "with `--dkim-selector` and `--dkim-key`: sign relayed mail with DKIM for this domain",
  }),
  dkimSelector: valueOption({
    flag: "dkim-selector",
    argument: "<name>",
    parse: text,
    commands: ["start"],
    help: "the selector of the key's DNS record (`<selector>._domainkey.<domain>`)",
  }),
  dkimKey: valueOption({
    flag: "dkim-key",
    argument: "<pem file>",
    parse: text,
    commands: ["start"],
    help: "the private key",
  }),
  allowPrivateWebhooks: switchOption({
    flag: "allow-private-webhooks",
    commands: ["start"],
    sets: "allowPrivateWebhooks",
    help: "deliver webhooks to loopback and private-network addresses",
    deployment: "only when every key holder is trusted",
  }),
  trustedProxies: valueOption({
    flag: "trusted-proxy",
    argument: "<address>",
    parse: text,
    repeatable: true,
    commands: ["start"],
    sets: "trustedProxies",
    help:
      "a load balancer in front: requests from it are counted against the client its `X-Forwarded-For` names, and " +
      "download links point at the scheme and host its `X-Forwarded-Proto` and `X-Forwarded-Host` name",
    deployment:
      "the balancer's address (repeatable): requests from it count against the client its `X-Forwarded-For` names, " +
      "and download links use its `X-Forwarded-Proto` and `X-Forwarded-Host`; without it, every request through " +
      "the balancer counts against the balancer",
  }),
  drainDelayMs: valueOption({
    flag: "drain-delay-ms",
    argument: "<ms>",
    parse: wholeNumber,
    commands: ["start"],
    sets: "drainDelayMs",
    default: { value: DEFAULT_DRAIN_DELAY_MS },
    help:
      "on SIGTERM or SIGINT, how long to keep serving, with `/ready` answering 503 `draining` and every answer " +
      "closing its connection, before the ports close and requests in flight finish",
    deployment:
      "with a balancer that polls `/ready`: its interval times the failures it needs, plus a second (see Health " +
      "checks)",
  }),
  inboxRequestsPerMinute: valueOption({
    flag: "inbox-requests-per-minute",
    argument: "<n>",
    parse: wholeNumber,
    commands: ["start"],
    sets: "limits.inboxRequestsPerMinute",
    default: { value: DEFAULT_LIMITS.inboxRequestsPerMinute },
    help: "Inbox API requests per minute, per API key",
    deployment: "per API key, over all instances together",
  }),
  inboxSendsPerDay: valueOption({
    flag: "inbox-sends-per-day",
    argument: "<n>",
    parse: wholeNumber,
    commands: ["start"],
    sets: "limits.inboxSendsPerDay",
    default: { value: DEFAULT_LIMITS.inboxSendsPerDay },
    help: "messages sent per UTC day, per API key",
    deployment: "per API key and UTC day, over all instances",
  }),
  forumReadsPerMinute: valueOption({
    flag: "forum-reads-per-minute",
    argument: "<n>",
    parse: wholeNumber,
    commands: ["start"],
    sets: "limits.forumReadsPerMinute",
    default: { value: DEFAULT_LIMITS.forumReadsPerMinute },
    help: "Forum API `GET` requests per minute, per API key",
    deployment: "per API key, over all instances",
  }),
  forumWritesPerMinute: valueOption({
    flag: "forum-writes-per-minute",
    argument: "<n>",
    parse: wholeNumber,
    commands: ["start"],
    sets: "limits.forumWritesPerMinute",
    default: { value: DEFAULT_LIMITS.forumWritesPerMinute },
    help: "every other Forum API request, per minute, per API key",
    deployment: "per API key, over all instances",
  }),
  forumRegistrationsPerHour: valueOption({
    flag: "forum-registrations-per-hour",
    argument: "<n>",
    parse: wholeNumber,
    commands: ["start"],
    sets: "limits.forumRegistrationsPerHour",
    default: { value: DEFAULT_LIMITS.forumRegistrationsPerHour },
    help: "agents that may register from one client address per hour",
    deployment: "agents registered per client address, over all instances",
  }),
  authFailuresPerMinute: valueOption({
    flag: "auth-failures-per-minute",
    argument: "<n>",
    parse: wholeNumber,
    commands: ["start"],
    sets: "limits.authFailuresPerMinute",
    default: { value: DEFAULT_LIMITS.authFailuresPerMinute },
    help:
      "requests with a missing or invalid key one client address may make per minute, per instance; past them it is " +
      "answered 429",
    deployment: "requests with a missing or invalid key per client address, on each instance; then 429",
  }),
  webhookRetryDelaysMs: valueOption({
    flag: "webhook-retry-delays",
    argument: "<ms,...>",
    parse: wholeNumbers,
    commands: ["start"],
    sets: "webhookRetryDelaysMs",
    default: { value: DEFAULT_WEBHOOK_RETRY_DELAYS_MS },
    help: "delays between webhook delivery attempts; after the last the delivery has failed",
    deployment: "milliseconds, comma-separated",
  }),
  webhookClaimMs: valueOption({
    flag: "webhook-claim-ms",
    argument: "<ms>",
    parse: wholeNumber,
    commands: ["start"],
    sets: "webhookClaimMs",
    default: { value: DEFAULT_WEBHOOK_CLAIM_MS },
    help:
      "the longest an instance holds a delivery for one attempt: its claim is renewed (`--claim-lease-ms`) until " +
      "then at most; a receiver has 15 s to answer, or half of this when shorter",
  }),
  claimLeaseMs: valueOption({
    flag: "claim-lease-ms",
    argument: "<ms>",
    parse: wholeNumber,
    commands: ["start"],
    sets: "claimLeaseMs",
    default: { value: DEFAULT_CLAIM_LEASE_MS },
    help:
      "how long a claim on a webhook delivery or a relayed recipient holds unless renewed: an instance renews the " +
      "claims of its attempts in flight every third of this (one statement per queue), so after a crash another " +
      "instance takes its rows over within this long, and never a row whose attempt still runs; at least 1000",
    deployment: "how soon the others take over a crashed instance's webhook deliveries and relayed mail",
  }),
  webhooksPerPod: valueOption({
    flag: "webhooks-per-pod",
    argument: "<n>",
    parse: wholeNumber,
    commands: ["start"],
    sets: "webhooksPerPod",
    default: { value: DEFAULT_WEBHOOKS_PER_POD },
    help: "webhooks one pod may have; creating one more answers 409",
    deployment: "webhooks one pod may have",
  }),
  listEntriesPerPod: valueOption({
    flag: "list-entries-per-pod",
    argument: "<n>",
    parse: wholeNumber,
    commands: ["start"],
    sets: "listEntriesPerPod",
    default: { value: DEFAULT_LIST_ENTRIES_PER_POD },
    help: "allow and block list entries one pod may have over all its lists; adding one more answers 409",
    deployment: "allow and block list entries one pod may have",
  }),
  draftsPerPod: valueOption({
    flag: "drafts-per-pod",
    argument: "<n>",
    parse: wholeNumber,
    commands: ["start"],
    sets: "draftsPerPod",
    default: { value: DEFAULT_DRAFTS_PER_POD },
    help: "drafts one pod may hold over all its inboxes; creating one more answers 409",
    deployment: "drafts one pod may hold, each with up to 10 MiB of attachments",
  }),
  websocketConnectionsPerKey: valueOption({
    flag: "websocket-connections-per-key",
    argument: "<n>",
    parse: wholeNumber,
    commands: ["start"],
    sets: "websocketConnectionsPerKey",
    default: { value: DEFAULT_WEBSOCKET_CONNECTIONS_PER_KEY },
    help: "live event connections one API key may hold at once, per instance",
    deployment: "live event connections of one pod, on each instance",
  }),
  eventPollMs: valueOption({
    flag: "event-poll-ms",
    argument: "<ms>",
    parse: wholeNumber,
    commands: ["start"],
    sets: "eventPollMs",
    default: { value: DEFAULT_EVENT_POLL_MS },
    help: "how often the live event stream looks for events that no notification announced, its safety net",
  }),
  testControl: switchOption({
    flag: "test-control",
    negation: "also",
    commands: ["start"],
    default: { shown: "on with the development keys" },
    help:
      "test control under `/_test` on both ports: the clock, faults, wait-for and reset, for tests; on a `--host` " +
      "other than loopback only when asked for by name",
  }),
  testControlKey: valueOption({
    flag: "test-control-key",
    argument: "<key>",
    parse: text,
    env: { name: "PIGEONHOLE_TEST_CONTROL_KEY", note: "which, unlike the flag, does not turn test control on" },
    secret: true,
    commands: ["start"],
    sets: "testControlKey",
    default: { value: DEFAULT_TEST_CONTROL_KEY },
    help: "the test-control key, required to turn test control on without the development keys; implies `--test-control`",
  }),
  quiet: switchOption({
    flag: "quiet",
    commands: ["start"],
    help: "only warnings and errors on stderr (no request lines)",
    deployment: "when the balancer already logs every request",
  }),
  help: switchOption({
    flag: "help",
    short: "h",
    env: null,
    commands: [],
    help: "show this help",
  }),
  version: switchOption({
    flag: "version",
    short: "v",
    env: null,
    commands: [],
    help: "print the version",
  }),
} as const satisfies OptionTable;

export type OptionName = keyof typeof OPTIONS;

/** What a command line gave, by option name, each value read by its option's parser. */
export type CommandLineValues = GivenOptions<typeof OPTIONS>;

/** The table's options with their names, in its order. */
export const optionEntries = (table: OptionTable = OPTIONS): [string, CommandLineOption][] => Object.entries(table);
