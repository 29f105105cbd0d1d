import type { operations } from "@pigeonhole/test-control-types";
import { ApiProblem } from "../../http/api-problem.ts";
import type { OperationHandlers, RequestContext } from "../../http/operation-types.ts";
import { withSpecDefault } from "../../http/operation-types.ts";
import { toMessage, toWebhookDelivery } from "../../inbox/records.ts";
import { normalizeAddress } from "../../mail/mail-address.ts";
import type { Storage } from "../../storage/open-storage.ts";
import { extractCodes } from "../extract/extract-codes.ts";
import { extractLinks } from "../extract/extract-links.ts";
import { waitUntil } from "./wait-until.ts";
import type { WaitWakeups } from "./wait-wakeups.ts";

/** The codes the waits answer with, beside the HTTP layer's. */
export type WaitProblemCode = "WAIT_TIMED_OUT";

export interface WaitHandlerOptions {
  storage: Pick<Storage, "inboxes" | "webhooks">;
  /** Notified after every commit that may store a match (see wait-wakeups.ts). */
  wakeups: WaitWakeups;
  /** How often a wait looks again when nothing notifies it. Default 250 ms. */
  pollMs?: number;
}

/** What a wait knows of its request: its `signal` aborts when the client goes away, which ends the wait. */
export type WaitContext = RequestContext<unknown>;

export type WaitHandlers = OperationHandlers<operations, "waitForMessage" | "waitForWebhookDelivery", WaitContext>;

const DEFAULT_POLL_MS = 250;

const timedOut = (timeoutMs: number) =>
  new ApiProblem<WaitProblemCode>(404, "WAIT_TIMED_OUT", `No match within ${timeoutMs} ms.`, { field: null });

/** `since` as stored timestamps are written (UTC, milliseconds), so that it compares with them as text. */
function storedTimestamp(since: string | undefined): string | undefined {
  if (since === undefined) {
    return undefined;
  }
  const epochMs = Date.parse(since);
  if (Number.isNaN(epochMs)) {
    // The format allows a few times no date can hold, such as a leap second.
    throw new ApiProblem(400, "INVALID_VALUE", `since: '${since}' is not a time the server can compare.`, {
      field: "since",
    });
  }
  return new Date(epochMs).toISOString();
}

/** The long polls of test control: a message or a webhook delivery, as soon as one matches. */
export function createWaitHandlers(options: WaitHandlerOptions): WaitHandlers {
  const { storage, wakeups } = options;
  const pollMs = options.pollMs ?? DEFAULT_POLL_MS;

  return {
    async waitForMessage({ query }, { signal }) {
      const timeoutMs = withSpecDefault(query.timeout_ms, "timeout_ms");
      const search = {
        inboxId: query.inbox_id === undefined ? undefined : normalizeAddress(query.inbox_id),
        from: query.from?.trim(),
        to: query.to?.trim(),
        subject: query.subject,
        text: query.text,
        labels: query.label,
        since: storedTimestamp(query.since),
      };
      const found = await waitUntil(() => storage.inboxes.findNewestMessage(search), {
        timeoutMs,
        pollMs,
        wakeups,
        signal,
      });
      if (!found) {
        throw timedOut(timeoutMs);
      }
      const message = toMessage(found.message, found.attachments, found.deliveries);
      return { status: 200, body: { message, links: extractLinks(message), codes: extractCodes(message) } };
    },

    async waitForWebhookDelivery({ query }, { signal }) {
      const timeoutMs = withSpecDefault(query.timeout_ms, "timeout_ms");
      const search = {
        webhookId: query.webhook_id,
        eventType: query.event_type,
        eventId: query.event_id,
        status: query.status,
        since: storedTimestamp(query.since),
      };
      const found = await waitUntil(() => storage.webhooks.findNewestDelivery(search), {
        timeoutMs,
        pollMs,
        wakeups,
        signal,
      });
      if (!found) {
        throw timedOut(timeoutMs);
      }
      return { status: 200, body: { delivery: toWebhookDelivery(found) } };
    },
  };
}
