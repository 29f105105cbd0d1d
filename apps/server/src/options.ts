import type { Clock } from "./clock.ts";
import { systemClock } from "./clock.ts";
import type { ServerLogger } from "./logger.ts";
import { createJsonLogger, silentLogger } from "./logger.ts";
import type { DkimKey } from "./mail/outbound/relay-transport.ts";
import { relayUrlProblem } from "./mail/outbound/relay-transport.ts";
import { DEFAULT_POOL_SIZE } from "./storage/open-storage.ts";

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
}

export interface ServerOptions {
  /** Interface to bind. Default `127.0.0.1`. */
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
  /** Deliver webhooks to loopback and private-network addresses. Default false. */
  allowPrivateWebhooks?: boolean;
  /**
   * Addresses of the proxies (load balancers) in front of the server. A request from one of them is counted against
   * the client its `X-Forwarded-For` names; from anywhere else the header is ignored. Default none.
   */
  trustedProxies?: readonly string[];
  /** Overrides of the default limits. */
  limits?: Partial<ServerLimits>;
  /** Delays between webhook delivery attempts, in milliseconds. Default {@link DEFAULT_WEBHOOK_RETRY_DELAYS_MS}. */
  webhookRetryDelaysMs?: readonly number[];
  /**
   * The development keys to register, or `false` for none (what a production server wants). Default from
   * `PIGEONHOLE_INBOX_API_KEY` / `PIGEONHOLE_FORUM_API_KEY`, else `pigeonhole-inbox-dev` / `pigeonhole-forum-dev`.
   */
  devKeys?: false | { inbox?: string; forum?: string };
  /**
   * How long this instance's claim on a webhook delivery holds; another instance takes the delivery over once it
   * runs out (after a crash). Default 60 s; an attempt times out after 15 s, or half the claim when shorter.
   */
  webhookClaimMs?: number;
  /**
   * How often the live event stream reads the event log for events no notification announced (PostgreSQL NOTIFY, or
   * this instance's own commits). A safety net: events normally arrive at once. Default 2 s.
   */
  eventPollMs?: number;
  /** How long a stop waits for requests in flight before closing their connections. Default 10 s. */
  shutdownGraceMs?: number;
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
  /** Largest message SMTP accepts, in bytes. Default 10 MiB. */
  smtpMaxSize?: number;
  /** SMTP connections one client address may hold at once. Default 10. */
  smtpConnectionsPerAddress?: number;
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
  /** Sign relayed mail with this DKIM key. */
  dkim?: DkimKey;
  /**
   * Delays between relay attempts for a recipient after a temporary failure, in milliseconds; after the last, it has
   * bounced. Default {@link DEFAULT_SMTP_RETRY_DELAYS_MS}.
   */
  smtpRetryDelaysMs?: readonly number[];
  /**
   * How long this instance's claim on a recipient of the relay holds; another instance takes it over once it runs
   * out (after a crash). Default 5 min; each command to the relay times out after a tenth of it, 30 s at most.
   */
  smtpRelayClaimMs?: number;
  /**
   * Test control (`/_test` on both ports: clock, faults, wait, reset), with its own key. Default: on when the
   * development keys are registered (a local server), off otherwise. `{ key }` turns it on; without development keys it
   * then needs a key, here or in `PIGEONHOLE_TEST_CONTROL_KEY`. `false` turns it off. Never on in production.
   */
  testControl?: false | { key?: string };
}

export const DEFAULT_HOST = "127.0.0.1";
export const DEFAULT_INBOX_PORT = 4010;
export const DEFAULT_FORUM_PORT = 4020;
export const DEFAULT_DATABASE_FILE = "pigeonhole.db";
export const DEFAULT_INBOX_DEV_KEY = "pigeonhole-inbox-dev";
export const DEFAULT_FORUM_DEV_KEY = "pigeonhole-forum-dev";
/** The test-control key of a local server, unless another is given. */
export const DEFAULT_TEST_CONTROL_KEY = "pigeonhole-test-control-dev";
export const DEFAULT_DOMAINS: readonly string[] = ["pigeonhole.test"];
/** The CLI's SMTP port (`startServer` receives mail only when given `smtpPort`). */
export const DEFAULT_SMTP_PORT = 2525;
export const DEFAULT_SMTP_MAX_SIZE = 10 * 1024 * 1024;
export const DEFAULT_SMTP_CONNECTIONS_PER_ADDRESS = 10;

export const DEFAULT_LIMITS: Readonly<ServerLimits> = {
  inboxRequestsPerMinute: 1000,
  inboxSendsPerDay: 10_000,
  forumReadsPerMinute: 60,
  forumWritesPerMinute: 30,
  forumRegistrationsPerHour: 10,
};

/**
 * After the first attempt fails: 5 s, 30 s, 2 min, 10 min, 30 min, 1 h, 3 h, 6 h. Nine attempts over about 10 h 43 min;
 * then the delivery is marked failed.
 */
export const DEFAULT_WEBHOOK_RETRY_DELAYS_MS: readonly number[] = [
  5_000, 30_000, 120_000, 600_000, 1_800_000, 3_600_000, 10_800_000, 21_600_000,
];

/** After each temporary failure of a recipient: 1 min, 5 min, 30 min, 2 h, 8 h; then it has bounced (about 10.5 h). */
export const DEFAULT_SMTP_RETRY_DELAYS_MS: readonly number[] = [60_000, 300_000, 1_800_000, 7_200_000, 28_800_000];

/** How long an instance holds a recipient of the relay (`ServerOptions.smtpRelayClaimMs`). */
export const DEFAULT_SMTP_RELAY_CLAIM_MS = 300_000;

export interface ResolvedOptions {
  host: string;
  inboxPort: number;
  forumPort: number;
  database: string;
  databasePoolSize: number;
  webhookClaimMs: number;
  eventPollMs: number;
  shutdownGraceMs: number;
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
    tls?: { cert: string | Buffer; key: string | Buffer };
  } | null;
  /** Delays between attempts for an outside recipient after a temporary failure (relayed or simulated). */
  mailRetryDelaysMs: readonly number[];
  relay: {
    url: string;
    insecure: boolean;
    dkim: DkimKey | null;
    claimMs: number;
    timeoutMs: number;
  } | null;
  /** Test control's key when it is on; null when it is off. */
  testControl: { key: string } | null;
}

export class InvalidOptionError extends Error {
  override name = "InvalidOptionError";
}

function positiveInteger(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new InvalidOptionError(`${name} must be a positive integer, not ${value}.`);
  }
  return value;
}

function port(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 0 || value > 65_535) {
    throw new InvalidOptionError(`${name} must be a port number from 0 to 65535, not ${value}.`);
  }
  return value;
}

const DOMAIN = /^(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))+$/;

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

function relay(options: ServerOptions): ResolvedOptions["relay"] {
  if (options.smtpRelay === undefined) {
    if (options.dkim) {
      throw new InvalidOptionError("dkim signs relayed mail: it needs smtpRelay.");
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
  const claimMs = positiveInteger("smtpRelayClaimMs", options.smtpRelayClaimMs ?? DEFAULT_SMTP_RELAY_CLAIM_MS);
  return {
    url: options.smtpRelay,
    insecure: options.smtpRelayInsecure ?? false,
    dkim: options.dkim ?? null,
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
  const key = options.testControl?.key ?? (env.PIGEONHOLE_TEST_CONTROL_KEY || undefined);
  if (key === undefined && devKeys === null) {
    throw new InvalidOptionError(
      "testControl needs a key when no development keys are registered: give testControl.key or PIGEONHOLE_TEST_CONTROL_KEY.",
    );
  }
  if (key !== undefined && (key.trim() === "" || /\s/.test(key))) {
    throw new InvalidOptionError("testControl.key must be a non-empty key without white space.");
  }
  return { key: key ?? DEFAULT_TEST_CONTROL_KEY };
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
    options.webhookRetryDelaysMs ?? DEFAULT_WEBHOOK_RETRY_DELAYS_MS,
  );
  const devKeys =
    options.devKeys === false
      ? null
      : {
          inbox: options.devKeys?.inbox ?? (env.PIGEONHOLE_INBOX_API_KEY || DEFAULT_INBOX_DEV_KEY),
          forum: options.devKeys?.forum ?? (env.PIGEONHOLE_FORUM_API_KEY || DEFAULT_FORUM_DEV_KEY),
        };
  return {
    host: options.host ?? DEFAULT_HOST,
    inboxPort: port("inboxPort", options.inboxPort ?? DEFAULT_INBOX_PORT),
    forumPort: port("forumPort", options.forumPort ?? DEFAULT_FORUM_PORT),
    database: options.database ?? DEFAULT_DATABASE_FILE,
    databasePoolSize: positiveInteger("databasePoolSize", options.databasePoolSize ?? DEFAULT_POOL_SIZE),
    webhookClaimMs: positiveInteger("webhookClaimMs", options.webhookClaimMs ?? 60_000),
    eventPollMs: positiveInteger("eventPollMs", options.eventPollMs ?? 2_000),
    shutdownGraceMs: positiveInteger("shutdownGraceMs", options.shutdownGraceMs ?? 10_000),
    allowPrivateWebhooks: options.allowPrivateWebhooks ?? false,
    trustedProxies: options.trustedProxies ?? [],
    limits,
    webhookRetryDelaysMs,
    devKeys,
    logger: options.logger === false ? silentLogger : (options.logger ?? createJsonLogger()),
    clock: options.clock ?? systemClock,
    domains: domains(options.domains ?? DEFAULT_DOMAINS),
    smtp:
      options.smtpPort === undefined
        ? null
        : {
            host: options.smtpHost ?? options.host ?? DEFAULT_HOST,
            port: port("smtpPort", options.smtpPort),
            maxSize: positiveInteger("smtpMaxSize", options.smtpMaxSize ?? DEFAULT_SMTP_MAX_SIZE),
            connectionsPerAddress: positiveInteger(
              "smtpConnectionsPerAddress",
              options.smtpConnectionsPerAddress ?? DEFAULT_SMTP_CONNECTIONS_PER_ADDRESS,
            ),
            ...(options.smtpTls ? { tls: options.smtpTls } : {}),
          },
    mailRetryDelaysMs: delays("smtpRetryDelaysMs", options.smtpRetryDelaysMs ?? DEFAULT_SMTP_RETRY_DELAYS_MS),
    relay: relay(options),
    testControl: testControl(options, devKeys, env),
  };
}
