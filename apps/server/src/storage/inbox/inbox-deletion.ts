import type { SelectQueryBuilder, Transaction } from "kysely";
import type { DatabaseSchema } from "../schema.ts";
import type { SqlDialect } from "../sql-dialect.ts";

/**
 * Deletes an inbox of a pod with everything that is only its own, in one transaction: its messages and threads, their
 * attachments and sources, the webhook deliveries of its events and the events themselves, its recipients' delivery
 * rows (and so its queued outbound mail), its drafts, its allow and block lists, and its address in the pod's webhook
 * filters (a webhook left with an empty list matches no inbox, never every inbox). False when
 * the pod has no such inbox.
 */
export async function deleteInbox(
  trx: Transaction<DatabaseSchema>,
  dialect: SqlDialect,
  podId: string,
  inboxId: string,
  at: string,
): Promise<boolean> {
  const inbox = await dialect
    .lockRows(trx.selectFrom("inboxes").select("seq").where("pod_id", "=", podId).where("inbox_id", "=", inboxId))
    .executeTakeFirst();
  if (!inbox) {
    return false;
  }
  await deleteMessagesOf(trx, trx.selectFrom("inboxes").select("inbox_id").where("inbox_id", "=", inboxId));
  await trx.deleteFrom("webhook_deliveries").where("inbox_id", "=", inboxId).execute();
  await trx.deleteFrom("events").where("inbox_id", "=", inboxId).execute();
  // Mail still queued for the relay goes with the inbox: nothing is sent from an inbox that no longer exists.
  await trx.deleteFrom("recipient_deliveries").where("inbox_id", "=", inboxId).execute();
  // Its drafts too: a scheduled one would otherwise be sent from an address that no longer exists.
  const drafts = trx.selectFrom("drafts").select("draft_id").where("inbox_id", "=", inboxId);
  await trx.deleteFrom("draft_attachments").where("draft_id", "in", drafts).execute();
  await trx.deleteFrom("drafts").where("inbox_id", "=", inboxId).execute();
  // And its allow and block lists, which an inbox made later at the same address must not inherit.
  await trx.deleteFrom("address_list_entries").where("pod_id", "=", podId).where("inbox_id", "=", inboxId).execute();

  const webhooks = await dialect
    .lockRows(
      trx
        .selectFrom("webhooks")
        .select(["webhook_id", "inbox_ids"])
        .where("pod_id", "=", podId)
        .where("inbox_ids", "is not", null),
    )
    .execute();
  for (const webhook of webhooks) {
    const inboxIds = JSON.parse(webhook.inbox_ids ?? "[]") as string[];
    if (inboxIds.includes(inboxId)) {
      await trx
        .updateTable("webhooks")
        .set({ inbox_ids: JSON.stringify(inboxIds.filter((id) => id !== inboxId)), updated_at: at })
        .where("webhook_id", "=", webhook.webhook_id)
        .execute();
    }
  }
  await trx.deleteFrom("inboxes").where("seq", "=", inbox.seq).execute();
  return true;
}

/** A query for the addresses of some inboxes. */
export type InboxIdsQuery = SelectQueryBuilder<DatabaseSchema, "inboxes", { inbox_id: string }>;

/**
 * Deletes the messages and threads of the inboxes `inboxIds` selects, with their attachments and sources: each copy
 * keeps its own, under its inbox, so nothing another inbox holds goes with them.
 */
export async function deleteMessagesOf(trx: Transaction<DatabaseSchema>, inboxIds: InboxIdsQuery): Promise<void> {
  for (const table of ["attachments", "message_sources", "messages", "threads"] as const) {
    await trx.deleteFrom(table).where("inbox_id", "in", inboxIds).execute();
  }
}
