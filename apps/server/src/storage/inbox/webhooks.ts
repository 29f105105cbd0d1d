import type { Webhook } from "@pigeonhole/inbox-types";
import type { ServerDatabase } from "../database.ts";
import { PreparedQuery } from "../prepared-query.ts";
import type { PageRequest, Positioned } from "./paging.ts";
import { cursorOf, newestFirst } from "./paging.ts";
import { parseNullableList, toWebhook } from "./records.ts";

/** What a webhook's owner chooses: everything but its id, secret and timestamps. */
export interface WebhookSettings {
  url: string;
  clientId: string | null;
  enabled: boolean;
  eventTypes: string[] | null;
  inboxIds: string[] | null;
}

export type CreateWebhookResult = { created: Webhook } | { existing: Webhook };
export type ReplaceWebhookResult = { replaced: Webhook } | { missing: true } | { clientIdTaken: string };

/** The stored columns of the settings. */
interface SettingsColumns {
  url: string;
  client_id: string | null;
  enabled: number;
  event_types: string | null;
  inbox_ids: string | null;
}

const webhookColumns = (settings: WebhookSettings): SettingsColumns => ({
  url: settings.url,
  client_id: settings.clientId,
  enabled: settings.enabled ? 1 : 0,
  event_types: settings.eventTypes === null ? null : JSON.stringify(settings.eventTypes),
  inbox_ids: settings.inboxIds === null ? null : JSON.stringify(settings.inboxIds),
});

const byClientId = new PreparedQuery((db, p: { podId: string; clientId: string }) =>
  db.selectFrom("webhooks").selectAll().where("pod_id", "=", p.podId).where("client_id", "=", p.clientId),
);

const insertWebhook = new PreparedQuery(
  (db, p: SettingsColumns & { webhookId: string; podId: string; secret: string; at: string }) =>
    db
      .insertInto("webhooks")
      .values({
        webhook_id: p.webhookId,
        pod_id: p.podId,
        secret: p.secret,
        created_at: p.at,
        updated_at: p.at,
        url: p.url,
        client_id: p.client_id,
        enabled: p.enabled,
        event_types: p.event_types,
        inbox_ids: p.inbox_ids,
      })
      .returningAll(),
);

const ownWebhook = new PreparedQuery((db, p: { podId: string; webhookId: string }) =>
  db.selectFrom("webhooks").selectAll().where("pod_id", "=", p.podId).where("webhook_id", "=", p.webhookId),
);

const otherWithClientId = new PreparedQuery((db, p: { podId: string; clientId: string; webhookId: string }) =>
  db
    .selectFrom("webhooks")
    .select("webhook_id")
    .where("pod_id", "=", p.podId)
    .where("client_id", "=", p.clientId)
    .where("webhook_id", "!=", p.webhookId),
);

const updateSettings = new PreparedQuery((db, p: SettingsColumns & { podId: string; webhookId: string; at: string }) =>
  db
    .updateTable("webhooks")
    .set({
      url: p.url,
      client_id: p.client_id,
      enabled: p.enabled,
      event_types: p.event_types,
      inbox_ids: p.inbox_ids,
      updated_at: p.at,
    })
    .where("pod_id", "=", p.podId)
    .where("webhook_id", "=", p.webhookId)
    .returningAll(),
);

const deleteOwnWebhook = new PreparedQuery((db, p: { podId: string; webhookId: string }) =>
  db.deleteFrom("webhooks").where("pod_id", "=", p.podId).where("webhook_id", "=", p.webhookId),
);

const cancelPendingDeliveries = new PreparedQuery((db, p: { webhookId: string }) =>
  db
    .updateTable("webhook_deliveries")
    .set({ status: "cancelled", last_error: "The webhook was deleted." })
    .where("webhook_id", "=", p.webhookId)
    .where("status", "=", "pending"),
);

const enabledWebhooks = new PreparedQuery((db, p: { podId: string }) =>
  db
    .selectFrom("webhooks")
    .select(["webhook_id", "event_types", "inbox_ids"])
    .where("pod_id", "=", p.podId)
    .where("enabled", "=", 1)
    .orderBy("seq"),
);

/** Creates a webhook unless the tenant already has one with this `client_id`. */
export function createWebhook(
  db: ServerDatabase,
  podId: string,
  webhookId: string,
  secret: string,
  settings: WebhookSettings,
  at: string,
): Promise<CreateWebhookResult> {
  return db.transaction().execute(async (trx) => {
    if (settings.clientId !== null) {
      const existing = await byClientId.first(trx, { podId, clientId: settings.clientId });
      if (existing) {
        return { existing: toWebhook(existing) };
      }
    }
    const [row] = await insertWebhook.rows(trx, { webhookId, podId, secret, at, ...webhookColumns(settings) });
    if (!row) {
      throw new Error(`The webhook ${webhookId} was not stored.`);
    }
    return { created: toWebhook(row) };
  });
}

export async function findWebhook(db: ServerDatabase, podId: string, webhookId: string): Promise<Webhook | null> {
  const row = await ownWebhook.first(db, { podId, webhookId });
  return row ? toWebhook(row) : null;
}

const newestWebhooks = newestFirst("webhooks", "pod_id");

export async function listWebhooks(
  db: ServerDatabase,
  podId: string,
  page: PageRequest,
): Promise<Positioned<Webhook>[]> {
  const rows = await newestWebhooks(db, podId, page);
  return rows.map((row) => ({ item: toWebhook(row), cursor: cursorOf(row) }));
}

/**
 * Replaces a webhook's settings (PUT semantics); its `client_id` must stay unique within the tenant. A webhook that
 * does not exist is missing whatever the settings say.
 */
export function replaceWebhook(
  db: ServerDatabase,
  podId: string,
  webhookId: string,
  settings: WebhookSettings,
  at: string,
): Promise<ReplaceWebhookResult> {
  return db.transaction().execute(async (trx) => {
    if (!(await ownWebhook.first(trx, { podId, webhookId }))) {
      return { missing: true as const };
    }
    if (settings.clientId !== null) {
      const other = await otherWithClientId.first(trx, { podId, clientId: settings.clientId, webhookId });
      if (other) {
        return { clientIdTaken: other.webhook_id };
      }
    }
    const row = await updateSettings.first(trx, { podId, webhookId, at, ...webhookColumns(settings) });
    return row ? { replaced: toWebhook(row) } : { missing: true as const };
  });
}

/** Deletes a webhook and cancels its pending deliveries; false when the tenant has no such webhook. */
export function deleteWebhook(db: ServerDatabase, podId: string, webhookId: string): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const result = await deleteOwnWebhook.execute(trx, { podId, webhookId });
    if (result.numAffectedRows === 0n) {
      return false;
    }
    await cancelPendingDeliveries.execute(trx, { webhookId });
    return true;
  });
}

/** Enabled webhooks of the tenant subscribed to this event type for this inbox, oldest first. */
export async function findSubscribedWebhooks(
  db: ServerDatabase,
  podId: string,
  eventType: string,
  inboxId: string,
): Promise<string[]> {
  const rows = await enabledWebhooks.rows(db, { podId });
  return rows
    .filter((row) => {
      const types = parseNullableList(row.event_types);
      const inboxes = parseNullableList(row.inbox_ids);
      return (types === null || types.includes(eventType)) && (inboxes === null || inboxes.includes(inboxId));
    })
    .map((row) => row.webhook_id);
}
