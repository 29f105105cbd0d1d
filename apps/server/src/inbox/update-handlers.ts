import type { Metadata, PatchWebhookRequest, UpdateInboxRequest } from "@pigeonhole/inbox-types";
import type { Clock } from "../clock.ts";
import { isoTimestamp } from "../clock.ts";
import { normalizeAddress } from "../mail/mail-address.ts";
import type { InboxStore } from "../storage/inbox/inbox-store.ts";
import type { InboxSettings } from "../storage/inbox/inbox-update.ts";
import type { WebhookSettings, WebhookStore } from "../storage/inbox/webhook-store.ts";
import type { InboxRow, WebhookRow } from "../storage/schema.ts";
import { InboxProblem } from "./inbox-errors.ts";
import type { InboxHandlers } from "./inbox-handlers.ts";
import { toInbox, toWebhook } from "./records.ts";
import { webhookUrlProblem } from "./webhooks/webhook-url.ts";

/** Keys an inbox's metadata may hold (the schema bounds one request; this bounds the merged result). */
const METADATA_KEYS = 50;
/** Inboxes a webhook's filter may name, as Create Webhook allows. */
const WEBHOOK_INBOXES = 10;

export interface UpdateHandlerDependencies {
  inboxes: InboxStore;
  webhooks: WebhookStore;
  clock: Clock;
}

type UpdateHandlers = Pick<InboxHandlers, "updateInbox" | "editWebhook">;

/** The inbox's settings with `body` applied: fields left out keep their value, metadata merges key by key. */
function changedSettings(current: InboxRow, body: UpdateInboxRequest): InboxSettings {
  const displayName = body.display_name === undefined ? current.display_name : body.display_name;
  if (body.metadata === undefined) {
    return { displayName, metadata: current.metadata };
  }
  if (body.metadata === null) {
    return { displayName, metadata: null };
  }
  const merged: Metadata = current.metadata === null ? {} : (JSON.parse(current.metadata) as Metadata);
  for (const [key, value] of Object.entries(body.metadata)) {
    if (value === null) {
      delete merged[key];
    } else {
      merged[key] = value;
    }
  }
  if (Object.keys(merged).length > METADATA_KEYS) {
    throw new InboxProblem(
      400,
      "TOO_MANY_KEYS",
      `metadata: an inbox holds at most ${METADATA_KEYS} keys; remove some (set them to null) first.`,
      { field: "metadata" },
    );
  }
  return { displayName, metadata: Object.keys(merged).length === 0 ? null : JSON.stringify(merged) };
}

const parseList = (json: string | null): string[] | null => (json === null ? null : (JSON.parse(json) as string[]));

/** The webhook's settings with `body` applied: fields left out keep their value; inbox ids are added and removed. */
function editedSettings(current: WebhookRow, body: PatchWebhookRequest): WebhookSettings {
  if (body.url !== undefined) {
    const problem = webhookUrlProblem(body.url);
    if (problem) {
      throw new InboxProblem(400, problem.code, `url: '${body.url}' ${problem.reason}.`, { field: "url" });
    }
  }
  const removed = new Set(body.remove_inbox_ids?.map(normalizeAddress));
  const inboxIds = [
    ...new Set([...(parseList(current.inbox_ids) ?? []), ...(body.add_inbox_ids ?? []).map(normalizeAddress)]),
  ].filter((inboxId) => !removed.has(inboxId));
  if (inboxIds.length > WEBHOOK_INBOXES) {
    throw new InboxProblem(
      400,
      "TOO_MANY_INBOXES",
      `add_inbox_ids: a webhook names at most ${WEBHOOK_INBOXES} inboxes; it would name ${inboxIds.length}.`,
      { field: "add_inbox_ids" },
    );
  }
  return {
    url: body.url ?? current.url,
    clientId: body.client_id === undefined ? current.client_id : body.client_id,
    enabled: body.enabled ?? current.enabled === 1,
    eventTypes:
      body.event_types === undefined
        ? (parseList(current.event_types) as WebhookSettings["eventTypes"])
        : body.event_types,
    // An empty filter is no filter: the webhook hears every inbox again, as AgentMail's does.
    inboxIds: inboxIds.length === 0 ? null : inboxIds,
  };
}

/** AgentMail's partial updates: Update Inbox (`PATCH /v0/inboxes/{id}`) and Edit Webhook (`PATCH`, beside `PUT`). */
export function createUpdateHandlers(deps: UpdateHandlerDependencies): UpdateHandlers {
  const { inboxes, webhooks, clock } = deps;
  return {
    async updateInbox({ path, body }, { caller }) {
      const updated = await inboxes.updateInbox(
        caller.podId,
        normalizeAddress(path.inbox_id),
        (current) => changedSettings(current, body),
        isoTimestamp(clock.now()),
      );
      if (!updated) {
        throw new InboxProblem(404, "NOT_FOUND", `Inbox '${path.inbox_id}' was not found.`, { field: "inbox_id" });
      }
      return { status: 200, body: toInbox(updated) };
    },

    async editWebhook({ path, body }, { caller }) {
      // The merge runs on the locked row, so concurrent edits (one adding an inbox, another removing one) all count.
      const result = await webhooks.editWebhook(
        caller.podId,
        path.webhook_id,
        (current) => editedSettings(current, body),
        isoTimestamp(clock.now()),
      );
      if ("missing" in result) {
        throw new InboxProblem(404, "NOT_FOUND", `Webhook '${path.webhook_id}' was not found.`, {
          field: "webhook_id",
        });
      }
      if ("clientIdTaken" in result) {
        throw new InboxProblem(
          409,
          "CLIENT_ID_TAKEN",
          `client_id: '${body.client_id}' already names webhook ${result.clientIdTaken}; client ids are unique per API key.`,
          { field: "client_id" },
        );
      }
      return { status: 200, body: toWebhook(result.replaced) };
    },
  };
}
