// The one home of each default of the server's options. The option table documents them, `resolveOptions` applies
// them, and code that needs one imports it from here. No runtime imports: any room may import this file.
import type { ServerLimits } from "../options.ts";

export const DEFAULT_HOST = "127.0.0.1";
export const DEFAULT_INBOX_PORT = 4010;
export const DEFAULT_FORUM_PORT = 4020;
export const DEFAULT_DATABASE_FILE = "pigeonhole.db";
export const DEFAULT_INBOX_DEV_KEY = "pigeonhole-inbox-dev";
export const DEFAULT_FORUM_DEV_KEY = "pigeonhole-forum-dev";
/** The test-control key of a local server, unless another is given. */
export const DEFAULT_TEST_CONTROL_KEY = "pigeonhole-test-control-dev";
/** The domain inboxes are created in unless the server is given others. */
export const DEFAULT_DOMAIN = "pigeonhole.test";
export const DEFAULT_DOMAINS: readonly string[] = [DEFAULT_DOMAIN];
/** The CLI's SMTP port (`startServer` receives mail only when given `smtpPort`). */
export const DEFAULT_SMTP_PORT = 2525;
export const DEFAULT_SMTP_MAX_SIZE = 10 * 1024 * 1024;
/**
 * The interface the metrics listener binds unless told otherwise: loopback whatever `--host` is, since metrics take no
 * key. Metrics are off unless a port is given.
 */
export const DEFAULT_METRICS_HOST = "127.0.0.1";
export const DEFAULT_SMTP_CONNECTIONS_PER_ADDRESS = 10;
export const DEFAULT_SMTP_MAX_CONNECTIONS = 100;
export const DEFAULT_WEBSOCKET_CONNECTIONS_PER_KEY = 20;
/** How often the live event stream reads the event log when no notification came (`ServerOptions.eventPollMs`). */
export const DEFAULT_EVENT_POLL_MS = 2_000;
/** How long a stop waits for requests in flight (`ServerOptions.shutdownGraceMs`). */
export const DEFAULT_SHUTDOWN_GRACE_MS = 10_000;
/**
 * How long a server starting waits, in all, for a PostgreSQL database that is not reachable yet, retrying with backoff
 * (`ServerOptions.databaseWaitMs`).
 */
export const DEFAULT_DATABASE_WAIT_MS = 60_000;
/**
 * How long a stopping server keeps serving while `/ready` answers 503 `draining`, before it closes its ports
 * (`ServerOptions.drainDelayMs`): none unless a balancer that polls `/ready` needs it (see server/drain.ts).
 */
export const DEFAULT_DRAIN_DELAY_MS = 0;

export const DEFAULT_LIMITS: Readonly<ServerLimits> = {
  inboxRequestsPerMinute: 1000,
  inboxSendsPerDay: 10_000,
  forumReadsPerMinute: 60,
  forumWritesPerMinute: 30,
  forumRegistrationsPerHour: 10,
  authFailuresPerMinute: 60,
};

/**
 * After the first attempt fails: 5 s, 30 s, 2 min, 10 min, 30 min, 1 h, 3 h, 6 h. Nine attempts over about 10 h 43 min;
 * then the delivery is marked failed.
 */
export const DEFAULT_WEBHOOK_RETRY_DELAYS_MS: readonly number[] = [
  5_000, 30_000, 120_000, 600_000, 1_800_000, 3_600_000, 10_800_000, 21_600_000,
];

/** The longest an instance holds a webhook delivery for one attempt (`ServerOptions.webhookClaimMs`). */
export const DEFAULT_WEBHOOK_CLAIM_MS = 60_000;

/**
 * How long a claim on a webhook delivery or a relayed recipient holds unless its instance renews it, which it does
 * every third of this while the attempt runs (`ServerOptions.claimLeaseMs`): a crashed instance's rows are taken
 * over within this long.
 */
export const DEFAULT_CLAIM_LEASE_MS = 10_000;

/** After each temporary failure of a recipient: 1 min, 5 min, 30 min, 2 h, 8 h; then it has bounced (about 10.5 h). */
export const DEFAULT_SMTP_RETRY_DELAYS_MS: readonly number[] = [60_000, 300_000, 1_800_000, 7_200_000, 28_800_000];

/** Webhooks one pod may have unless `ServerOptions.webhooksPerPod` says otherwise. */
export const DEFAULT_WEBHOOKS_PER_POD = 20;

/** Allow and block list entries one pod may have unless `ServerOptions.listEntriesPerPod` says otherwise. */
export const DEFAULT_LIST_ENTRIES_PER_POD = 1000;

/**
 * Drafts one pod may hold unless `ServerOptions.draftsPerPod` says otherwise: as many as list entries, far more than
 * an agent keeps unsent, while each draft may carry megabytes of attachments.
 */
export const DEFAULT_DRAFTS_PER_POD = 1000;

/** The longest an instance holds a recipient of the relay for one attempt (`ServerOptions.smtpRelayClaimMs`). */
export const DEFAULT_SMTP_RELAY_CLAIM_MS = 300_000;
