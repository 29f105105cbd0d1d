import type { ServerDatabase } from "../database.ts";
import { DEFAULT_COMMUNITY } from "../forum/default-community.ts";
import { deleteMessagesOf } from "../inbox/inbox-deletion.ts";
import { retryingTransaction } from "../retrying-transaction.ts";
import type { SqlDialect } from "../sql-dialect.ts";
import { type RankOf, wipeForumAgent } from "./forum-agent-wipe.ts";

export type { RankOf };

/**
 * Wipes data so that tests start clean, each wipe in one transaction per service. API keys and forum agents stay;
 * rate-limit counts are forgotten through the window counter (see rate-limit-windows.ts), which may keep them in memory.
 */
export interface DataReset {
  /** Everything of one inbox pod: inboxes, messages, threads, webhooks and their deliveries, events, idempotency records, send counts, its recipients' delivery rows, its drafts and its allow and block lists. */
  wipeInboxPod(podId: string): Promise<void>;
  /** Everything of one forum agent, others' counts kept exact: see wipeForumAgent in forum-agent-wipe.ts. */
  wipeForumAgent(agentId: string, rankOf: RankOf, at: string): Promise<void>;
  /** Every inbox and forum record; the default community is kept. */
  wipeEverything(): Promise<void>;
}

/** One implementation for SQLite and PostgreSQL: the statements are the same on both. */
export class SqlDataReset implements DataReset {
  readonly #db: ServerDatabase;
  readonly #dialect: SqlDialect;

  constructor(db: ServerDatabase, dialect: SqlDialect) {
    this.#db = db;
    this.#dialect = dialect;
  }

  wipeInboxPod(podId: string): Promise<void> {
    return retryingTransaction(this.#db, this.#dialect, async (trx) => {
      await deleteMessagesOf(trx, trx.selectFrom("inboxes").select("inbox_id").where("pod_id", "=", podId));
      const podWebhooks = trx.selectFrom("webhooks").select("webhook_id").where("pod_id", "=", podId);
      const podDeliveries = trx.selectFrom("webhook_deliveries").select("seq").where("webhook_id", "in", podWebhooks);
      await trx.deleteFrom("webhook_delivery_attempts").where("delivery_seq", "in", podDeliveries).execute();
      await trx.deleteFrom("webhook_deliveries").where("webhook_id", "in", podWebhooks).execute();
      await trx.deleteFrom("webhooks").where("pod_id", "=", podId).execute();
      // The pod's event positions stay: a stream resuming from an old position still sees later events as new.
      await trx.deleteFrom("events").where("pod_id", "=", podId).execute();
      await trx.deleteFrom("recipient_deliveries").where("pod_id", "=", podId).execute();
      const podDrafts = trx.selectFrom("drafts").select("draft_id").where("pod_id", "=", podId);
      await trx.deleteFrom("draft_attachments").where("draft_id", "in", podDrafts).execute();
      await trx.deleteFrom("drafts").where("pod_id", "=", podId).execute();
      await trx.deleteFrom("idempotency_keys").where("pod_id", "=", podId).execute();
      await trx.deleteFrom("send_counts").where("pod_id", "=", podId).execute();
      await trx.deleteFrom("address_list_entries").where("pod_id", "=", podId).execute();
      await trx.deleteFrom("inboxes").where("pod_id", "=", podId).execute();
    });
  }

  wipeForumAgent(agentId: string, rankOf: RankOf, at: string): Promise<void> {
    return retryingTransaction(this.#db, this.#dialect, (trx) =>
      wipeForumAgent(trx, this.#dialect, agentId, rankOf, at),
    );
  }

  async wipeEverything(): Promise<void> {
    await retryingTransaction(this.#db, this.#dialect, async (trx) => {
      for (const table of [
        "webhook_delivery_attempts",
        "webhook_deliveries",
        "webhooks",
        "events",
        "recipient_deliveries",
        "draft_attachments",
        "drafts",
        "attachments",
        "message_sources",
        "messages",
        "threads",
        "idempotency_keys",
        "send_counts",
        "address_list_entries",
        "inboxes",
      ] as const) {
        await trx.deleteFrom(table).execute();
      }
    });
    await retryingTransaction(this.#db, this.#dialect, async (trx) => {
      for (const table of [
        "forum_votes",
        "comment_votes",
        "forum_comments",
        "forum_community_moderators",
        "forum_posts",
        "forum_idempotency_keys",
        "forum_follows",
        "forum_subscriptions",
      ] as const) {
        await trx.deleteFrom(table).execute();
      }
      await trx.deleteFrom("forum_communities").where("community_id", "<>", DEFAULT_COMMUNITY.id).execute();
    });
  }
}
