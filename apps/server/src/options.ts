import type { Clock } from "./clock.ts";
import { systemClock } from "./clock.ts";
import type { ServerLogger } from "./logger.ts";
import { createJsonLogger, silentLogger } from "./logger.ts";
import { isLoopbackHost } from "./loopback-host.ts";
import { heloNameProblem, machineHeloName } from "./mail/outbound/helo-name.ts";
import type { DkimKey } from "./mail/outbound/relay-transport.ts";
import { relayUrlProblem } from "./mail/outbound/relay-transport.ts";
// Defaults that no row of the option table gives as a `startServer` option's value, and the limits as one record;
// every other default is read from the table.
import {
  DEFAULT_DATABASE_FILE,
  DEFAULT_FORUM_DEV_KEY,
  DEFAULT_INBOX_DEV_KEY,
  DEFAULT_LIMITS,
  DEFAULT_SHUTDOWN_GRACE_MS,
} from "./options/defaults.ts";
import { TABLE_DEFAULTS as DEFAULTS } from "./options/table-defaults.ts";

/** Per-key limits of both services; each can be overridden. */
export interface ServerLimits {
  /** Inbox API requests per minute per API key. Default 1000. */
  inboxRequestsPerMinute: number;
  /** Messages sent per UTC day per inbox API key. Default 10,000. */
  inboxSendsPerDay: number;
  /** Forum API reads (GET) per minute per API key. Default 60. */
  forumReadsPerMinute: number;
  /** Forum API writes (create post, create comment, vote) per minute per API key. Default 30. */
  forumWritesPerMinute: number;
  /** Agents that may register per hour from one client address. Default 10. */
  forumRegistrationsPerHour: number;
  /**
   * Requests with a missing or invalid key one client address may make per minute, over both services, on this
   * instance; past them its requests answer 429 before any key is looked at. Default 60.
   */
  authFailuresPerMinute: number;
}

export interface ServerOptions {
  /**
   * Interface the HTTP APIs bind. Default `127.0.0.1`. On an address other than loopback (127.0.0.0/8, `::1`,
   * `localhost`), development keys and test control are never on by default: give `devKeys: false`, or ask for each
   * of them by name (`devKeys: {}`, `testControl: {}` or `false`); otherwise starting is refused.
   */
  host?: string;
  /** Port of the Inbox API. Default 4010; 0 picks a free port. */
  inboxPort?: number;
  /** Port of the Forum API. Default 4020; 0 picks a free port. */
  forumPort?: number;
  /**
   * The database: a `postgres://` or `postgresql://` URL (any number of instances may share it), a SQLite file, or
   * `":memory:"`. Default `pigeonhole.db` in the working directory.
   */
  database?: string;
  /** PostgreSQL connections this instance keeps open at most. Default 10. */
  databasePoolSize?: number;
  /**
   * How long a start waits, in all, for a PostgreSQL database that is not reachable yet (refused, not resolving, or
   * starting up), trying again with backoff and logging each failed attempt; then it gives up. A refused login or a
   * missing database fails at once. 0 fails at the first attempt. Default 60 s.
   */
  databaseWaitMs?: number;
  /** Deliver webhooks to loopback and private-network addresses. Default false. */
  allowPrivateWebhooks?: boolean;
  /**
   * Addresses of the proxies (load balancers) in front of the server. A request from one of them is counted against
   * the client its `X-Forwarded-For` names; from anywhere else the header is ignored. Default none.
   */
  trustedProxies?: readonly string[];
  /** Overrides of the default limits. */
  limits?: Partial<ServerLimits>;
  /** Delays between webhook delivery attempts, in milliseconds. Default `DEFAULT_WEBHOOK_RETRY_DELAYS_MS`. */
  webhookRetryDelaysMs?: readonly number[];
  /**
   * The development keys to register, or `false` for none (what a production server wants): then development keys
   * registered earlier on the database are removed (a forum agent keeps its content). Default (also for an empty
   * object) from `PIGEONHOLE_INBOX_API_KEY` / `PIGEONHOLE_FORUM_API_KEY`, else `pigeonhole-inbox-dev` /
   * `pigeonhole-forum-dev`. Left out, they are on only on a loopback `host`; an object asks for them on any host.
   */
  devKeys?: false | { inbox?: string; forum?: string };
  /**
   * The longest this instance holds a webhook delivery for one attempt: its claim is renewed (see `claimLeaseMs`)
   * until then at most. Default 60 s; an attempt times out after 15 s, or half this when shorter.
   */
  webhookClaimMs?: number;
  /**
   * How long a claim on a webhook delivery or a recipient of the relay holds unless renewed. An instance renews the
   * claims of its attempts in flight every third of it, in one statement per queue, so another instance takes over
   * the rows of one that crashed within this long, and never a row whose attempt is still running. Default 10 s; at
   * most `webhookClaimMs` / `smtpRelayClaimMs`.
   */
  claimLeaseMs?: number;
  /**
   * Webhooks one pod may have (`DEFAULT_WEBHOOKS_PER_POD` unless given): creating one more answers 409
   * `WEBHOOK_LIMIT_REACHED`. Each webhook is a delivery per event, so this bounds the work one event of a pod causes.
   */
  webhooksPerPod?: number;
  /**
   * Allow and block list entries one pod may have over all its lists and its inboxes' lists
   * (`DEFAULT_LIST_ENTRIES_PER_POD` unless given): adding one more answers 409 `LIST_LIMIT_REACHED`.
   */
  listEntriesPerPod?: number;
  /**
   * Drafts one pod may hold over all its inboxes (`DEFAULT_DRAFTS_PER_POD` unless given): creating one more answers
   * 409 `DRAFT_LIMIT_REACHED`. Each draft keeps up to 10 MiB of attachments, so this bounds what one pod stores there.
   */
  draftsPerPod?: number;
  /**
   * How often the live event stream reads the event log for events no notification announced (PostgreSQL NOTIFY, or
   * this instance's own commits). A safety net: events normally arrive at once. Default 2 s.
   */
  eventPollMs?: number;
  /**
   * Live event (WebSocket) connections one API key may hold at once on this instance (the keys of one pod count
   * together); the upgrade beyond answers 429 `TOO_MANY_CONNECTIONS`. Default 20.
   */
  websocketConnectionsPerKey?: number;
  /** How long a stop waits for requests in flight before closing their connections. Default 10 s. */
  shutdownGraceMs?: number;
  /**
   * How long a stop keeps serving, with `/ready` answering 503 `draining`, before it closes the ports: time for a
   * balancer that polls `/ready` to take the instance out. Default 0 (see server/drain.ts).
   */
  drainDelayMs?: number;
  /** Structured log lines (JSON on stderr by default); `false` for silence. */
  logger?: ServerLogger | false;
  /** Source of the current time. */
  clock?: Clock;
  /**
   * The domains inboxes are created in (the first is the default of Create Inbox) and mail is accepted for. Default
   * `["pigeonhole.test"]`.
   */
  domains?: readonly string[];
  /** Port to receive mail on over SMTP; 0 picks a free port. SMTP is off unless given (the CLI's default is 2525). */
  smtpPort?: number;
  /** Interface SMTP binds. Default `host`. */
  smtpHost?: string;
  /**
   * Port of a listener of its own serving Prometheus metrics at `/metrics`; 0 picks a free port. Metrics are off (no
   * listener, nothing counted) unless given.
   */
  metricsPort?: number;
  /** Interface the metrics listener binds. Default `127.0.0.1`, whatever `host` is: metrics take no key. */
  metricsHost?: string;
  /** Largest message SMTP accepts, in bytes. Default 10 MiB. */
  smtpMaxSize?: number;
  /** SMTP connections one client address may hold at once. Default 10. */
  smtpConnectionsPerAddress?: number;
  /**
   * SMTP connections the instance holds at once, from all addresses together; one more is answered 421 and closed.
   * Default 100. With `smtpMaxSize`, it bounds the memory of messages being received.
   */
  smtpMaxConnections?: number;
  /** STARTTLS on the SMTP port with this certificate and key (PEM). */
  smtpTls?: { cert: string | Buffer; key: string | Buffer };
  /**
   * The relay mail to outside recipients goes through: `smtp://user:password@host:port` (STARTTLS when the relay
   * offers it; port 587 unless given) or `smtps://...` (TLS from the start; port 465). Without it, such mail is kept
   * and not sent (`captured`).
   */
  smtpRelay?: string;
  /** Accept a relay certificate that does not verify (self-signed). Default false. */
  smtpRelayInsecure?: boolean;
  /**
   * The name the server gives itself in `EHLO`/`HELO` to the relay: a host name, or an address literal such as
   * `[192.0.2.1]`. Default the first of `domains` when given, else the machine's host name (`os.hostname()`).
   */
  smtpHeloName?: string;
  /** Sign relayed mail with this DKIM key. */
  dkim?: DkimKey;
  /**
   * Delays between relay attempts for a recipient after a temporary failure, in milliseconds; after the last, it has
   * bounced. Default `DEFAULT_SMTP_RETRY_DELAYS_MS`.
   */
  smtpRetryDelaysMs?: readonly number[];
  /**
   * The longest this instance holds a recipient of the relay for one attempt: its claim is renewed (see
   * `claimLeaseMs`) until then at most. Default 5 min; each command to the relay times out after a tenth of it, 30 s
   * at most.
   */
  smtpRelayClaimMs?: number;
  /**
   * Test control (`/_test` on both ports: clock, faults, wait, reset), with its own key. Default: on when the
   * development keys are registered (a local server), off otherwise. `{ key }` turns it on; without development keys it
   * then needs a key, here or in `PIGEONHOLE_TEST_CONTROL_KEY`. `false` turns it off. Never on in production. On a
   * `host` other than loopback it must be asked for by name (`{}`, or `false`) when development keys are on.
   */
  testControl?: false | { key?: string };
  /**
   * The key test control takes when it is on and `testControl` names none. Giving it does not turn test control on.
   * Default `PIGEONHOLE_TEST_CONTROL_KEY`, else the development one.
   */
  testControlKey?: string;
}

// Each default has its home in options/defaults.ts; they keep their names here, where the options are.
export * from "./options/defaults.ts";

export interface ResolvedOptions {
  host: string;
  inboxPort: number;
  forumPort: number;
  database: string;
  databasePoolSize: number;
  databaseWaitMs: number;
  webhookClaimMs: number;
  claimLeaseMs: number;
  webhooksPerPod: number;
  listEntriesPerPod: number;
  draftsPerPod: number;
  eventPollMs: number;
  websocketConnectionsPerKey: number;
  shutdownGraceMs: number;
  drainDelayMs: number;
  allowPrivateWebhooks: boolean;
  trustedProxies: readonly string[];
  limits: ServerLimits;
  webhookRetryDelaysMs: readonly number[];
  devKeys: { inbox: string; forum: string } | null;
  logger: ServerLogger;
  clock: Clock;
  domains: readonly string[];
  smtp: {
    host: string;
    port: number;
    maxSize: number;
    connectionsPerAddress: number;
    maxConnections: number;
    tls?: { cert: string | Buffer; key: string | Buffer };
  } | null;
  /** The metrics listener, or null when metrics are off. */
  metrics: { host: string; port: number } | null;
  /** Delays between attempts for an outside recipient after a temporary failure (relayed or simulated). */
  mailRetryDelaysMs: readonly number[];
  relay: {
    url: string;
    insecure: boolean;
    dkim: DkimKey | null;
    /** The name in `EHLO`/`HELO`. */
    heloName: string;
    claimMs: number;
    timeoutMs: number;
  } | null;
  /** Test control's key when it is on; null when it is off. */
  testControl: { key: string } | null;
  /** What is on, on purpose, on an interface other than loopback: the server warns of it as it starts. */
  exposedOnNetwork: readonly LoopbackConvenience[];
}

/** What is on by default only on loopback. */
export type LoopbackConvenience = "development keys" | "test control";

export class InvalidOptionError extends Error {
  override name = "InvalidOptionError";
}

function positiveInteger(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new InvalidOptionError(`${name} must be a positive integer, not ${value}.`);
  }
  return value;
}

/** A duration in milliseconds where 0 means "none": a whole number, not negative. */
function milliseconds(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new InvalidOptionError(`${name} must be a whole number of milliseconds, not ${value}.`);
  }
  return value;
}

/** The shortest claim lease: each instance renews its claims every third of it, a statement per queue each time. */
const MIN_CLAIM_LEASE_MS = 1_000;

function claimLease(value: number): number {
  if (!Number.isSafeInteger(value) || value < MIN_CLAIM_LEASE_MS) {
    throw new InvalidOptionError(
      `claimLeaseMs must be a whole number of at least ${MIN_CLAIM_LEASE_MS} ms, not ${value}.`,
    );
  }
  return value;
}

function port(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 0 || value > 65_535) {
    throw new InvalidOptionError(`${name} must be a port number from 0 to 65535, not ${value}.`);
  }
  return value;
}

/** The inbox spec's domain rule (Create Inbox's `domain`): labels of letters, digits and `-`, a top level of letters. */
const DOMAIN = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/;

function domains(values: readonly string[]): readonly string[] {
  if (values.length === 0) {
    throw new InvalidOptionError("domains must name at least one domain.");
  }
  return [...new Set(values.map((value) => value.trim().toLowerCase()))].map((domain) => {
    if (!DOMAIN.test(domain)) {
      throw new InvalidOptionError(`domains must hold domain names such as mail.example.com, not '${domain}'.`);
    }
    return domain;
  });
}

function delays(name: string, values: readonly number[]): readonly number[] {
  for (const delay of values) {
    if (!Number.isSafeInteger(delay) || delay < 0) {
      throw new InvalidOptionError(`${name} must hold non-negative integers, not ${delay}.`);
    }
  }
  return values;
}

/** The relay's greeting names the server: as told, else its first domain, else the machine. */
function heloName(options: ServerOptions, hostedDomains: readonly string[]): string {
  if (options.smtpHeloName === undefined) {
    return options.domains === undefined ? machineHeloName() : (hostedDomains[0] ?? machineHeloName());
  }
  const problem = heloNameProblem(options.smtpHeloName);
  if (problem) {
    throw new InvalidOptionError(`smtpHeloName: ${problem}`);
  }
  return options.smtpHeloName;
}

function relay(options: ServerOptions, hostedDomains: readonly string[]): ResolvedOptions["relay"] {
  if (options.smtpRelay === undefined) {
    if (options.dkim) {
      throw new InvalidOptionError("dkim signs relayed mail: it needs smtpRelay.");
    }
    if (options.smtpHeloName !== undefined) {
      throw new InvalidOptionError(
        "smtpHeloName is the server's name in its greeting to the relay: it needs smtpRelay.",
      );
    }
    return null;
  }
  const problem = relayUrlProblem(options.smtpRelay);
  if (problem) {
    throw new InvalidOptionError(`smtpRelay: ${problem}`);
  }
  if (options.dkim && !DOMAIN.test(options.dkim.domain.toLowerCase())) {
    throw new InvalidOptionError(`dkim.domain must be a domain name, not '${options.dkim.domain}'.`);
  }
  const claimMs = positiveInteger("smtpRelayClaimMs", options.smtpRelayClaimMs ?? DEFAULTS.smtpRelayClaimMs);
  return {
    url: options.smtpRelay,
    insecure: options.smtpRelayInsecure ?? false,
    dkim: options.dkim ?? null,
    heloName: heloName(options, hostedDomains),
    claimMs,
    // Every command of an attempt answers well within the claim, so no other instance takes a recipient in flight.
    timeoutMs: Math.min(30_000, Math.floor(claimMs / 10)),
  };
}

/**
 * Test control is on by default only where the development keys are: a local server. Asked for without them (a
 * production-like start), it needs a key of its own, so that a well-known key never opens a shared database.
 */
function testControl(
  options: ServerOptions,
  devKeys: ResolvedOptions["devKeys"],
  env: Readonly<Record<string, string | undefined>>,
): ResolvedOptions["testControl"] {
  if (options.testControl === false || (options.testControl === undefined && devKeys === null)) {
    return null;
  }
  const key = options.testControl?.key ?? options.testControlKey ?? (env.PIGEONHOLE_TEST_CONTROL_KEY || undefined);
  if (key === undefined && devKeys === null) {
    throw new InvalidOptionError(
      "testControl needs a key when no development keys are registered: give testControl.key or PIGEONHOLE_TEST_CONTROL_KEY.",
    );
  }
  if (key !== undefined && (key.trim() === "" || /\s/.test(key))) {
    throw new InvalidOptionError("testControl.key must be a non-empty key without white space.");
  }
  return { key: key ?? DEFAULTS.testControlKey };
}

/**
 * Development keys and test control are loopback conveniences: anyone reaching another interface could read every
 * pod's mail with them, or wipe everything. There, each must be asked for by name; what would be on by default is
 * refused, with what to do. Answers what is on, on purpose, beyond loopback.
 */
function exposedOnNetwork(
  host: string,
  options: ServerOptions,
  devKeys: ResolvedOptions["devKeys"],
  testControl: ResolvedOptions["testControl"],
): LoopbackConvenience[] {
  if (isLoopbackHost(host)) {
    return [];
  }
  const on: [LoopbackConvenience, boolean, boolean][] = [
    ["development keys", devKeys !== null, options.devKeys === undefined],
    ["test control", testControl !== null, options.testControl === undefined],
  ];
  const byDefault = on.filter(([, isOn, unasked]) => isOn && unasked).map(([name]) => name);
  if (byDefault.length > 0) {
    throw new InvalidOptionError(
      [
        `${host} is not a loopback address, and ${byDefault.join(" and ")} would be on by default.`,
        "Development keys and test control are for loopback only (127.0.0.0/8, ::1, localhost): anyone who reaches",
        "the port could use them to read every pod's mail or wipe everything.",
        "- In production, start with --no-dev-keys (startServer: devKeys: false) and create keys with",
        "  `pigeonhole-server keys create --service inbox|forum`; test control then stays off.",
        "- To expose them on purpose, ask for each by name: --dev-keys with --test-control or --no-test-control",
        "  (startServer: devKeys: {} with testControl: {} or false). The server warns of it at every start.",
      ].join("\n"),
    );
  }
  return on.filter(([, isOn]) => isOn).map(([name]) => name);
}

export function resolveOptions(
  options: ServerOptions = {},
  env: Readonly<Record<string, string | undefined>> = process.env,
): ResolvedOptions {
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  for (const [name, value] of Object.entries(limits)) {
    positiveInteger(`limits.${name}`, value);
  }
  const webhookRetryDelaysMs = delays(
    "webhookRetryDelaysMs",
    options.webhookRetryDelaysMs ?? DEFAULTS.webhookRetryDelaysMs,
  );
  const devKeys =
    options.devKeys === false
      ? null
      : {
          inbox: options.devKeys?.inbox ?? (env.PIGEONHOLE_INBOX_API_KEY || DEFAULT_INBOX_DEV_KEY),
          forum: options.devKeys?.forum ?? (env.PIGEONHOLE_FORUM_API_KEY || DEFAULT_FORUM_DEV_KEY),
        };
  const host = options.host ?? DEFAULTS.host;
  const resolvedTestControl = testControl(options, devKeys, env);
  const hostedDomains = domains(options.domains ?? DEFAULTS.domains);
  return {
    host,
    inboxPort: port("inboxPort", options.inboxPort ?? DEFAULTS.inboxPort),
    forumPort: port("forumPort", options.forumPort ?? DEFAULTS.forumPort),
    database: options.database ?? DEFAULT_DATABASE_FILE,
    databasePoolSize: positiveInteger("databasePoolSize", options.databasePoolSize ?? DEFAULTS.databasePoolSize),
    databaseWaitMs: milliseconds("databaseWaitMs", options.databaseWaitMs ?? DEFAULTS.databaseWaitMs),
    webhookClaimMs: positiveInteger("webhookClaimMs", options.webhookClaimMs ?? DEFAULTS.webhookClaimMs),
    claimLeaseMs: claimLease(options.claimLeaseMs ?? DEFAULTS.claimLeaseMs),
    webhooksPerPod: positiveInteger("webhooksPerPod", options.webhooksPerPod ?? DEFAULTS.webhooksPerPod),
    listEntriesPerPod: positiveInteger("listEntriesPerPod", options.listEntriesPerPod ?? DEFAULTS.listEntriesPerPod),
    draftsPerPod: positiveInteger("draftsPerPod", options.draftsPerPod ?? DEFAULTS.draftsPerPod),
    eventPollMs: positiveInteger("eventPollMs", options.eventPollMs ?? DEFAULTS.eventPollMs),
    websocketConnectionsPerKey: positiveInteger(
      "websocketConnectionsPerKey",
      options.websocketConnectionsPerKey ?? DEFAULTS.websocketConnectionsPerKey,
    ),
    shutdownGraceMs: positiveInteger("shutdownGraceMs", options.shutdownGraceMs ?? DEFAULT_SHUTDOWN_GRACE_MS),
    drainDelayMs: milliseconds("drainDelayMs", options.drainDelayMs ?? DEFAULTS.drainDelayMs),
    allowPrivateWebhooks: options.allowPrivateWebhooks ?? false,
    trustedProxies: options.trustedProxies ?? [],
    limits,
    webhookRetryDelaysMs,
    devKeys,
    logger: options.logger === false ? silentLogger : (options.logger ?? createJsonLogger()),
    clock: options.clock ?? systemClock,
    domains: hostedDomains,
    smtp:
      options.smtpPort === undefined
        ? null
        : {
            host: options.smtpHost ?? host,
            port: port("smtpPort", options.smtpPort),
            maxSize: positiveInteger("smtpMaxSize", options.smtpMaxSize ?? DEFAULTS.smtpMaxSize),
            connectionsPerAddress: positiveInteger(
              "smtpConnectionsPerAddress",
              options.smtpConnectionsPerAddress ?? DEFAULTS.smtpConnectionsPerAddress,
            ),
            maxConnections: positiveInteger(
              "smtpMaxConnections",
              options.smtpMaxConnections ?? DEFAULTS.smtpMaxConnections,
            ),
            ...(options.smtpTls ? { tls: options.smtpTls } : {}),
          },
    metrics:
      options.metricsPort === undefined
        ? null
        : { host: options.metricsHost ?? DEFAULTS.metricsHost, port: port("metricsPort", options.metricsPort) },
    mailRetryDelaysMs: delays("smtpRetryDelaysMs", options.smtpRetryDelaysMs ?? DEFAULTS.smtpRetryDelaysMs),
    relay: relay(options, hostedDomains),
    testControl: resolvedTestControl,
    exposedOnNetwork: exposedOnNetwork(host, options, devKeys, resolvedTestControl),
  };
}
