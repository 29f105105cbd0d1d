import type { EventMetrics, EventType, InboxEvent } from "@pigeonhole/inbox-types";
import type { Clock } from "../clock.ts";
import { isoTimestamp } from "../clock.ts";
import { withSpecDefault } from "../http/operation-types.ts";
import type { EventQueries, InboxEventRow } from "../storage/inbox/event-queries.ts";
import type { InboxRow } from "../storage/schema.ts";
import { InboxProblem } from "./inbox-errors.ts";
import type { InboxHandlers } from "./inbox-handlers.ts";
import type { PageTokens } from "./page-token.ts";
import { requestInstant } from "./request-instant.ts";

/** Every event type, to check `event_types` of the metrics against. */
const EVENT_TYPES = [
  "message.received",
  "message.received.spam",
  "message.received.blocked",
  "message.received.unauthenticated",
  "message.sent",
  "message.delivered",
  "message.delayed",
  "message.bounced",
  "message.complained",
  "message.rejected",
  "domain.verified",
] as const satisfies readonly EventType[];
// A type added to the spec and not here fails to compile.
const everyEventType: Exclude<EventType, (typeof EVENT_TYPES)[number]> extends never ? true : never = true;
void everyEventType;

const DAY_MS = 24 * 60 * 60 * 1000;
/** Periods one metrics query may span: the answer and the grouping stay bounded whatever `period` is. */
const MAX_PERIODS = 10_000;

/** The label an event gives its message, as AgentMail's `InboxEvent.label`. */
const LABEL_BY_EVENT_TYPE: Partial<Record<string, string>> = { "message.received": "received", "message.sent": "sent" };

export interface EventHandlerDependencies {
  eventQueries: EventQueries;
  pageTokens: PageTokens;
  clock: Clock;
  /** The caller's inbox, or a 404. */
  ownInbox(podId: string, inboxId: string): Promise<InboxRow>;
}

type EventHandlers = Pick<InboxHandlers, "listInboxEvents" | "getEventMetrics" | "getInboxEventMetrics">;

/** The `message_id` an event's payload names: its message, send, delivery, delay, bounce or complaint's. */
function messageIdOf(payload: string): string | null {
  const parsed: unknown = JSON.parse(payload);
  if (parsed === null || typeof parsed !== "object") {
    return null;
  }
  for (const part of Object.values(parsed)) {
    if (part !== null && typeof part === "object" && "message_id" in part && typeof part.message_id === "string") {
      return part.message_id;
    }
  }
  return null;
}

const toInboxEvent = (inbox: InboxRow, row: InboxEventRow): InboxEvent => {
  const at = isoTimestamp(row.createdAtMs);
  return {
    pod_id: inbox.pod_id,
    inbox_id: inbox.inbox_id,
    event_id: row.eventId,
    event_type: row.eventType as EventType,
    message_id: messageIdOf(row.payload),
    label: LABEL_BY_EVENT_TYPE[row.eventType] ?? null,
    event_at: at,
    created_at: at,
  };
};

/** `event_types` repeated, or as one JSON array (AgentMail's SDK sends `["message.received"]`). */
function requestedEventTypes(values: readonly string[] | undefined): EventType[] | undefined {
  if (values === undefined || values.length === 0) {
    return undefined;
  }
  const names = values.flatMap((value): unknown[] => {
    if (!value.startsWith("[")) {
      return [value];
    }
    try {
      const parsed: unknown = JSON.parse(value);
      return Array.isArray(parsed) ? parsed : [value];
    } catch {
      return [value];
    }
  });
  return names.map((name) => {
    const known = EVENT_TYPES.find((type) => type === name);
    if (!known) {
      throw new InboxProblem(400, "INVALID_VALUE", `event_types: '${String(name)}' is not an event type.`, {
        field: "event_types",
        hint: `Event types: ${EVENT_TYPES.join(", ")}.`,
      });
    }
    return known;
  });
}

interface MetricsQuery {
  event_types?: string[];
  start?: string;
  end?: string;
  period?: number;
  limit?: number;
  descending?: boolean;
}

/**
 * An inbox's stored events (AgentMail's `InboxEvent` list) and counts of a pod's or an inbox's events by type and
 * period (AgentMail's metrics), both read from the event log, which keeps 7 days.
 */
export function createEventHandlers(deps: EventHandlerDependencies): EventHandlers {
  const { eventQueries, pageTokens, clock } = deps;

  async function metrics(podId: string, inboxId: string | undefined, query: MetricsQuery) {
    const endMs = query.end === undefined ? clock.now() : requestInstant(query.end, "end");
    const startMs = query.start === undefined ? endMs - DAY_MS : requestInstant(query.start, "start");
    const periodMs = withSpecDefault(query.period, "period") * 1000;
    if (endMs < startMs) {
      throw new InboxProblem(400, "INVALID_VALUE", "end: must not be before start.", { field: "end" });
    }
    if ((endMs - startMs) / periodMs > MAX_PERIODS) {
      throw new InboxProblem(
        400,
        "INVALID_VALUE",
        `period: the range holds more than ${MAX_PERIODS} periods of ${periodMs / 1000} seconds; choose a longer period or a shorter range.`,
        { field: "period" },
      );
    }
    const counts = await eventQueries.countEvents({
      podId,
      inboxId,
      eventTypes: requestedEventTypes(query.event_types),
      startMs,
      endMs,
      periodMs,
    });
    const direction = query.descending === true ? -1 : 1;
    const limit = withSpecDefault(query.limit, "limit");
    const answer: EventMetrics = {};
    for (const type of EVENT_TYPES) {
      const buckets = counts
        .filter((count) => count.eventType === type)
        .sort((a, b) => direction * (a.periodStartMs - b.periodStartMs))
        .slice(0, limit)
        .map((count) => ({ timestamp: isoTimestamp(count.periodStartMs), count: count.count }));
      if (buckets.length > 0) {
        answer[type] = buckets;
      }
    }
    return answer;
  }

  return {
    async listInboxEvents({ path, query }, { caller }) {
      const inbox = await deps.ownInbox(caller.podId, path.inbox_id);
      const limit = withSpecDefault(query.limit, "limit");
      const ascending = query.ascending === true;
      const scope = `events:${inbox.inbox_id}:${ascending ? "asc" : "desc"}`;
      const after = query.page_token === undefined ? undefined : pageTokens.read(scope, query.page_token).seq;
      const rows = await eventQueries.listInboxEvents(caller.podId, inbox.inbox_id, {
        limit: limit + 1,
        after,
        ascending,
      });
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      const nextPageToken =
        rows.length > limit && last ? pageTokens.issue(scope, { createdAt: "", seq: last.seq }) : null;
      return {
        status: 200,
        body: {
          count: page.length,
          limit,
          next_page_token: nextPageToken,
          events: page.map((row) => toInboxEvent(inbox, row)),
        },
      };
    },

    async getEventMetrics({ query }, { caller }) {
      return { status: 200, body: await metrics(caller.podId, undefined, query) };
    },

    async getInboxEventMetrics({ path, query }, { caller }) {
      const inbox = await deps.ownInbox(caller.podId, path.inbox_id);
      return { status: 200, body: await metrics(caller.podId, inbox.inbox_id, query) };
    },
  };
}
