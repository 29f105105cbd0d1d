import { cappedInsert } from "../capped-insert.ts";
import type { ServerDatabase } from "../database.ts";
import type { WebhookRow } from "../schema.ts";
import type { SqlDialect } from "../sql-dialect.ts";
import { perDialect } from "../sql-dialect.ts";
import type { UnitsOfWork } from "../unit-of-work.ts";
import type { DeliveryFilter, LoggedDelivery } from "./delivery-log.ts";
import { listDeliveries, redeliver } from "./delivery-log.ts";
import type { DeliverySearch } from "./delivery-search.ts";
import { findNewestDelivery } from "./delivery-search.ts";
import type { PageRequest, Positioned } from "./paging.ts";
import { newestFirst } from "./paging.ts";

/** What a webhook's owner chooses: everything but its id, secret and timestamps. */
export interface WebhookSettings {
  url: string;
  clientId: string | null;
  enabled: boolean;
  eventTypes: string[] | null;
  inboxIds: string[] | null;
}

export type CreateWebhookResult = { created: WebhookRow } | { existing: WebhookRow } | { limitReached: number };
export type ReplaceWebhookResult = { replaced: WebhookRow } | { missing: true } | { clientIdTaken: string };

/** The webhooks of a pod. */
export interface WebhookStore {
  /**
   * Creates a webhook, unless the pod has one with the same `client_id` (then answers it) or already has
   * `maxPerPod` webhooks (then answers `limitReached`).
   */
  createWebhook(
    podId: string,
    webhookId: string,
    secret: string,
    settings: WebhookSettings,
    at: string,
    maxPerPod: number,
  ): Promise<CreateWebhookResult>;
  findWebhook(podId: string, webhookId: string): Promise<WebhookRow | null>;
  listWebhooks(podId: string, page: PageRequest): Promise<Positioned<WebhookRow>[]>;
  /** Replaces a webhook's settings (PUT semantics); its `client_id` must stay unique within the pod. */
  replaceWebhook(
    podId: string,
    webhookId: string,
    settings: WebhookSettings,
    at: string,
  ): Promise<ReplaceWebhookResult>;
  /**
   * Changes a webhook's settings in one transaction (PATCH semantics): the row is locked, `change` computes the new
   * settings from the current ones, and the row is written back, so two edits at once each see the other's result.
   * Its `client_id` must stay unique within the pod.
   */
  editWebhook(
    podId: string,
    webhookId: string,
    change: (current: WebhookRow) => WebhookSettings,
    at: string,
  ): Promise<ReplaceWebhookResult>;
  /** Deletes a webhook and cancels its pending deliveries; false when the pod has no such webhook. */
  deleteWebhook(podId: string, webhookId: string): Promise<boolean>;
  /** A page of a webhook's delivery log, newest first (the caller checked that the webhook is the pod's). */
  listDeliveries(webhookId: string, filter: DeliveryFilter, page: PageRequest): Promise<Positioned<LoggedDelivery>[]>;
  /** Makes one of a webhook's deliveries due now, whatever its status; null when the webhook has no such delivery. */
  redeliver(webhookId: string, deliveryId: string, nowMs: number, at: string): Promise<LoggedDelivery | null>;
  /** The newest delivery of any pod matching the search (see delivery-search.ts). */
  findNewestDelivery(search: DeliverySearch): Promise<LoggedDelivery | null>;
}

const settingsColumns = (settings: WebhookSettings) => ({
  url: settings.url,
  client_id: settings.clientId,
  enabled: settings.enabled ? 1 : 0,
  event_types: settings.eventTypes === null ? null : JSON.stringify(settings.eventTypes),
  inbox_ids: settings.inboxIds === null ? null : JSON.stringify(settings.inboxIds),
});

const webhookPage = perDialect((dialect) =>
  newestFirst(dialect, (db, podId) => db.selectFrom("webhooks").selectAll().where("pod_id", "=", podId)),
);

export class SqlWebhookStore implements WebhookStore {
  readonly #db: ServerDatabase;
  readonly #dialect: SqlDialect;
  readonly #units: UnitsOfWork;

  constructor(db: ServerDatabase, dialect: SqlDialect, units: UnitsOfWork) {
    this.#db = db;
    this.#dialect = dialect;
    this.#units = units;
  }

  /**
   * Creates a webhook unless the pod already has one with this `client_id` (also when two instances race) or has
   * `maxPerPod` already. The pod is locked (through its key rows) while its webhooks are counted, so that instances
   * creating at once wait for each other and the count stays within the cap.
   */
  createWebhook(
    podId: string,
    webhookId: string,
    secret: string,
    settings: WebhookSettings,
    at: string,
    maxPerPod: number,
  ): Promise<CreateWebhookResult> {
    const sameClientId = async (trx: ServerDatabase) => {
      const existing = settings.clientId === null ? undefined : await byClientId(trx, podId, settings.clientId);
      return existing && { existing };
    };
    return this.#db.transaction().execute((trx) =>
      cappedInsert<CreateWebhookResult, CreateWebhookResult>(
        trx,
        this.#dialect,
        { table: "webhooks", podId, maxPerPod },
        {
          existing: () => sameClientId(trx),
          async insert() {
            const created = await trx
              .insertInto("webhooks")
              .values({
                webhook_id: webhookId,
                pod_id: podId,
                secret,
                created_at: at,
                updated_at: at,
                ...settingsColumns(settings),
              })
              .onConflict((oc) => oc.doNothing())
              .returningAll()
              .executeTakeFirst();
            const answer = created ? { created } : await sameClientId(trx);
            if (!answer) {
              throw new Error(`The webhook ${webhookId} was not stored.`);
            }
            return answer;
          },
        },
      ),
    );
  }

  async findWebhook(podId: string, webhookId: string) {
    const row = await this.#db
      .selectFrom("webhooks")
      .selectAll()
      .where("pod_id", "=", podId)
      .where("webhook_id", "=", webhookId)
      .executeTakeFirst();
    return row ?? null;
  }

  listWebhooks(podId: string, page: PageRequest) {
    return webhookPage(this.#dialect)(this.#db, podId, page);
  }

  async replaceWebhook(
    podId: string,
    webhookId: string,
    settings: WebhookSettings,
    at: string,
  ): Promise<ReplaceWebhookResult> {
    if (settings.clientId !== null) {
      const other = await this.#byClientId(podId, settings.clientId);
      if (other && other.webhook_id !== webhookId && (await this.findWebhook(podId, webhookId))) {
        return { clientIdTaken: other.webhook_id };
      }
    }
    try {
      const replaced = await this.#db
        .updateTable("webhooks")
        .set({ ...settingsColumns(settings), updated_at: at })
        .where("pod_id", "=", podId)
        .where("webhook_id", "=", webhookId)
        .returningAll()
        .executeTakeFirst();
      return replaced ? { replaced } : { missing: true };
    } catch (error) {
      // Another instance gave the client_id to another webhook between the check and the update.
      const other = settings.clientId === null ? undefined : await this.#byClientId(podId, settings.clientId);
      if (this.#dialect.isUniqueViolation(error) && other) {
        return { clientIdTaken: other.webhook_id };
      }
      throw error;
    }
  }

  async editWebhook(
    podId: string,
    webhookId: string,
    change: (current: WebhookRow) => WebhookSettings,
    at: string,
  ): Promise<ReplaceWebhookResult> {
    let wantedClientId: string | null = null;
    try {
      return await this.#db.transaction().execute(async (trx) => {
        const current = await this.#dialect
          .lockRows(
            trx.selectFrom("webhooks").selectAll().where("pod_id", "=", podId).where("webhook_id", "=", webhookId),
          )
          .executeTakeFirst();
        if (!current) {
          return { missing: true as const };
        }
        const settings = change(current);
        wantedClientId = settings.clientId;
        if (settings.clientId !== null && settings.clientId !== current.client_id) {
          const other = await byClientId(trx, podId, settings.clientId);
          if (other) {
            return { clientIdTaken: other.webhook_id };
          }
        }
        const replaced = await trx
          .updateTable("webhooks")
          .set({ ...settingsColumns(settings), updated_at: at })
          .where("seq", "=", current.seq)
          .returningAll()
          .executeTakeFirstOrThrow();
        return { replaced };
      });
    } catch (error) {
      // Another instance gave the client_id to another webhook between the check and the update.
      const other = wantedClientId === null ? undefined : await this.#byClientId(podId, wantedClientId);
      if (this.#dialect.isUniqueViolation(error) && other) {
        return { clientIdTaken: other.webhook_id };
      }
      throw error;
    }
  }

  deleteWebhook(podId: string, webhookId: string): Promise<boolean> {
    return this.#db.transaction().execute(async (trx) => {
      const result = await trx
        .deleteFrom("webhooks")
        .where("pod_id", "=", podId)
        .where("webhook_id", "=", webhookId)
        .executeTakeFirst();
      if (result.numDeletedRows === 0n) {
        return false;
      }
      await trx
        .updateTable("webhook_deliveries")
        .set({ status: "cancelled", last_error: "The webhook was deleted." })
        .where("webhook_id", "=", webhookId)
        .where("status", "=", "pending")
        .execute();
      return true;
    });
  }

  listDeliveries(webhookId: string, filter: DeliveryFilter, page: PageRequest) {
    // A delivery and its attempts are read by two statements: one snapshot keeps them in agreement.
    return this.#dialect.readSnapshot(this.#db, (trx) => listDeliveries(trx, webhookId, filter, page));
  }

  async redeliver(webhookId: string, deliveryId: string, nowMs: number, at: string) {
    const redelivered = await redeliver(this.#db, webhookId, deliveryId, nowMs, at, (read) =>
      this.#dialect.readSnapshot(this.#db, read),
    );
    if (redelivered) {
      this.#units.committed((unit) => unit.deliveriesEnqueued(1));
    }
    return redelivered;
  }

  findNewestDelivery(search: DeliverySearch) {
    return this.#dialect.readSnapshot(this.#db, (trx) => findNewestDelivery(trx, search));
  }

  #byClientId(podId: string, clientId: string) {
    return byClientId(this.#db, podId, clientId);
  }
}

function byClientId(db: ServerDatabase, podId: string, clientId: string) {
  return db
    .selectFrom("webhooks")
    .selectAll()
    .where("pod_id", "=", podId)
    .where("client_id", "=", clientId)
    .executeTakeFirst();
}
