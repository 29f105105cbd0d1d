import { silentLogger } from "../logger.ts";
import type { ServerDatabase } from "./database.ts";
import type { DatabaseWait } from "./database-wait.ts";
import { openWhenReachable } from "./database-wait.ts";
import type { CommentStore } from "./forum/comment-store.ts";
import { SqlCommentStore } from "./forum/comment-store.ts";
import type { FeedStore } from "./forum/feed-store.ts";
import { SqlFeedStore } from "./forum/feed-store.ts";
import type { FollowStore } from "./forum/follow-store.ts";
import { SqlFollowStore } from "./forum/follow-store.ts";
import type { ForumStore } from "./forum/forum-store.ts";
import { SqlForumStore } from "./forum/forum-store.ts";
import type { ModerationStore } from "./forum/moderation-store.ts";
import { SqlModerationStore } from "./forum/moderation-store.ts";
import type { ProfileStore } from "./forum/profile-store.ts";
import { SqlProfileStore } from "./forum/profile-store.ts";
import type { SearchStore } from "./forum/search-store.ts";
import { SqlSearchStore } from "./forum/search-store.ts";
import type { DeliveryOutbox } from "./inbox/delivery-outbox.ts";
import { SqlDeliveryOutbox } from "./inbox/delivery-outbox.ts";
import type { DraftQueue, DraftStore } from "./inbox/draft-store.ts";
import { SqlDraftQueue, SqlDraftStore } from "./inbox/draft-store.ts";
import type { EventLog } from "./inbox/event-log.ts";
import { SqlEventLog } from "./inbox/event-log.ts";
import { type EventQueries, SqlEventQueries } from "./inbox/event-queries.ts";
import type { MessageSearchIndex } from "./inbox/full-text-search.ts";
import { SqlMessageSearchIndex } from "./inbox/full-text-search.ts";
import type { InboxStore } from "./inbox/inbox-store.ts";
import { SqlInboxStore } from "./inbox/inbox-store.ts";
import type { ListStore } from "./inbox/list-store.ts";
import { SqlListStore } from "./inbox/list-store.ts";
import type { MailQueue } from "./inbox/mail-queue.ts";
import { SqlMailQueue } from "./inbox/mail-queue.ts";
import type { SendStore } from "./inbox/send-store.ts";
import { SqlSendStore } from "./inbox/send-store.ts";
import type { WebhookStore } from "./inbox/webhook-store.ts";
import { SqlWebhookStore } from "./inbox/webhook-store.ts";
import type { KeyStore } from "./keys/key-store.ts";
import { SqlKeyStore } from "./keys/key-store.ts";
import type { EventNotifications } from "./postgres/event-notifications.ts";
import { listenForEvents } from "./postgres/event-notifications.ts";
import type { PoolUse } from "./postgres/open-postgres.ts";
import { connectPostgres, openPostgres, poolUseOf, redactPassword } from "./postgres/open-postgres.ts";
import { postgresDialect } from "./postgres/postgres-dialect.ts";
import type { WindowCounter } from "./rate-limit-windows.ts";
import { DatabaseWindowCounter, MemoryWindowCounter } from "./rate-limit-windows.ts";
import type { DataReset } from "./reset/data-reset.ts";
import { SqlDataReset } from "./reset/data-reset.ts";
import type { DatabaseReadiness } from "./schema-version.ts";
import { checkSchemaVersion } from "./schema-version.ts";
import { loadOrCreateSecret } from "./secrets.ts";
import type { SqlDialect } from "./sql-dialect.ts";
import { openSqlite } from "./sqlite/open-sqlite.ts";
import { sqliteDialect } from "./sqlite/sqlite-dialect.ts";
import type { CommitAnnouncer } from "./unit-of-work.ts";
import { UnitsOfWork } from "./unit-of-work.ts";

/** Everything the server stores, one store per caller, on one database. */
export interface Storage {
  /** `sqlite` (embedded: one server process owns the file) or `postgres` (any number of instances). */
  readonly kind: SqlDialect["name"];
  /** The database as logs may name it (a PostgreSQL address without its password). */
  readonly description: string;
  readonly keys: KeyStore;
  readonly inboxes: InboxStore;
  /** Ranked search of a pod's inboxes, messages and threads (full text, migration 0011). */
  readonly search: MessageSearchIndex;
  readonly webhooks: WebhookStore;
  readonly sends: SendStore;
  /** Allow and block lists of addresses and domains. */
  readonly lists: ListStore;
  readonly outbox: DeliveryOutbox;
  /** Outside recipients waiting for the relay. */
  readonly mailQueue: MailQueue;
  /** Drafts of inboxes. */
  readonly drafts: DraftStore;
  /** Scheduled drafts waiting for their `send_at`. */
  readonly draftQueue: DraftQueue;
  readonly forum: ForumStore;
  /** Agents' profiles with their counts. */
  readonly forumProfiles: ProfileStore;
  /** Follows between agents and subscriptions to communities. */
  readonly forumFollows: FollowStore;
  readonly forumFeed: FeedStore;
  readonly forumSearch: SearchStore;
  /** Single comments, threaded comment pages and votes on comments. */
  readonly forumComments: CommentStore;
  /** Community moderators and pinned posts. */
  readonly forumModeration: ModerationStore;
  readonly events: EventLog;
  /** An inbox's stored events and counts of events by type, for the API. */
  readonly eventQueries: EventQueries;
  /** Wipes one key's data, or all of it (test control's reset). */
  readonly reset: DataReset;
  /**
   * Tells `onPod` of every pod that stored events on another instance of the database, as each send commits
   * (PostgreSQL's LISTEN/NOTIFY); `onReconnect` after a lost connection came back. Nothing to hear on SQLite, where
   * this process is the only writer.
   */
  listenForEvents(
    onPod: (podId: string) => void,
    onReconnect: () => void,
    onError: (error: Error) => void,
  ): EventNotifications;
  /**
   * From now on, tells `announcer` what each committed send, received mail, mail outcome or redelivery stored for
   * others (events, webhook deliveries, mail for the relay). Nobody hears until then.
   */
  announceCommitsTo(announcer: CommitAnnouncer): void;
  /** How the connection pool of requests is used now: on PostgreSQL; SQLite has no pool (one connection, in process). */
  poolUse?(): PoolUse;
  /** Counts rate-limit windows: in the database on PostgreSQL, so limits hold over all instances together. */
  readonly rateWindows: WindowCounter;
  /** A random secret shared by every instance, made on first use (see secrets.ts). */
  secret(name: string): Promise<Buffer>;
  /**
   * Whether the database answers and has run every migration of this build: one cheap query, bounded in time
   * ({@link READINESS_TIMEOUT_MS}), on PostgreSQL over a connection of its own so that a pool busy with requests
   * does not make it fail.
   */
  readiness(): Promise<DatabaseReadiness>;
  close(): Promise<void>;
}

export interface StorageOptions {
  /** PostgreSQL connections per instance. Default 10. */
  poolSize?: number;
  /** Told of errors on idle PostgreSQL connections, which the pool replaces. Default: ignored. */
  onConnectionError?(error: Error): void;
  /** On PostgreSQL, how long to wait for a database that is not reachable yet (see database-wait.ts). Default: not at all. */
  wait?: DatabaseWait;
}

export const DEFAULT_POOL_SIZE = 10;

/** Connections per instance that only count rate limits, beside the pool. */
const COUNTER_POOL_SIZE = 2;

/**
 * How long the readiness check's connection may take to connect, and its query to answer, on PostgreSQL: a database
 * slower than this counts as not answering.
 */
export const READINESS_TIMEOUT_MS = 1_000;

/** Whether a database location names a PostgreSQL database rather than a SQLite file. */
export const isPostgresUrl = (location: string): boolean => /^postgres(?:ql)?:\/\//i.test(location);

/**
 * Opens the database at `location` (a `postgres://` or `postgresql://` URL, a SQLite file, or `:memory:`), brings its
 * schema up to date, and answers its stores.
 */
export async function openStorage(location: string, options: StorageOptions = {}): Promise<Storage> {
  if (isPostgresUrl(location)) {
    const connection = {
      poolSize: options.poolSize ?? DEFAULT_POOL_SIZE,
      onConnectionError: options.onConnectionError ?? (() => {}),
    };
    const db = await openWhenReachable(
      () => openPostgres(location, connection),
      redactPassword(location),
      options.wait ?? { maxWaitMs: 0, logger: silentLogger },
    );
    // Every request counts against a rate-limit row; waiting for each count to reach the disk would make requests of
    // one key queue behind each other's flushes. A database crash forgetting the last counts only frees a few requests.
    const counters = connectPostgres(location, {
      ...connection,
      poolSize: COUNTER_POOL_SIZE,
      asynchronousCommit: true,
    });
    const storage = storageOn(db, postgresDialect, redactPassword(location), new DatabaseWindowCounter(counters));
    // One connection of its own, opened at the first check: requests never hold it, and it never waits long.
    const readinessProbe = connectPostgres(location, {
      poolSize: 1,
      onConnectionError: () => {},
      timeoutMs: READINESS_TIMEOUT_MS,
    });
    return {
      ...storage,
      poolUse: () => poolUseOf(db) ?? { total: 0, idle: 0, waiting: 0 },
      listenForEvents: (onPod, onReconnect, onError) => listenForEvents(location, onPod, onReconnect, onError),
      readiness: () => checkReadinessOn(readinessProbe),
      close: () => Promise.all([storage.close(), counters.destroy(), readinessProbe.destroy()]).then(() => undefined),
    };
  }
  const db = await openSqlite(location);
  return storageOn(db, sqliteDialect, location, new MemoryWindowCounter());
}

function storageOn(db: ServerDatabase, dialect: SqlDialect, description: string, rateWindows: WindowCounter): Storage {
  const units = new UnitsOfWork(db, dialect);
  return {
    kind: dialect.name,
    description,
    keys: new SqlKeyStore(db, dialect),
    inboxes: new SqlInboxStore(db, dialect),
    search: new SqlMessageSearchIndex(db, dialect),
    webhooks: new SqlWebhookStore(db, dialect, units),
    sends: new SqlSendStore(dialect, units),
    lists: new SqlListStore(db, dialect),
    outbox: new SqlDeliveryOutbox(db, dialect),
    mailQueue: new SqlMailQueue(db, dialect),
    drafts: new SqlDraftStore(db, dialect),
    draftQueue: new SqlDraftQueue(db, dialect),
    forum: new SqlForumStore(db, dialect),
    forumProfiles: new SqlProfileStore(db),
    forumFollows: new SqlFollowStore(db),
    forumFeed: new SqlFeedStore(db, dialect),
    forumSearch: new SqlSearchStore(db, dialect),
    forumComments: new SqlCommentStore(db, dialect),
    forumModeration: new SqlModerationStore(db, dialect),
    events: new SqlEventLog(db, dialect),
    eventQueries: new SqlEventQueries(db, dialect),
    reset: new SqlDataReset(db, dialect),
    listenForEvents: () => ({ close: async () => {} }),
    announceCommitsTo: (announcer) => units.announceTo(announcer),
    rateWindows,
    secret: (name) => loadOrCreateSecret(db, name),
    readiness: () => checkSchemaVersion(db),
    close: () => db.destroy(),
  };
}

/**
 * The check on PostgreSQL's connection of its own, tried once more on a new connection when it fails: a connection the
 * database closed while idle (it restarted) fails its next query, and says nothing about the database now.
 */
async function checkReadinessOn(probe: ServerDatabase): Promise<DatabaseReadiness> {
  const first = await checkSchemaVersion(probe);
  return first.ready || first.reason !== "database" ? first : checkSchemaVersion(probe);
}
