// What the sample's server sends to the page: the answers of its `/api` routes and the server-sent events.

export type Service = "inbox" | "forum";

/** The page sends this header (value `1`) while its "Use a wrong API key" switch is on. */
export const WRONG_KEY_HEADER = "x-sample-wrong-key";

/** The page sends the id of the agent it acts as in the forum in this header; without it, the sample's own agent acts. */
export const AGENT_HEADER = "x-sample-agent";

/** One retry the client made, as its `onRetry` hook reported it. */
export interface Retry {
  service: Service;
  method: string;
  path: string;
  /** What failed: an HTTP status such as `429`, or the name of a connection error. */
  reason: string;
  /** How long the client waited before trying again. */
  delayMs: number;
}

/** Why a call failed, in the words a user needs. */
export interface Problem {
  service: Service;
  kind:
    | "authentication"
    | "forbidden"
    | "rate_limit"
    | "validation"
    | "not_found"
    | "conflict"
    | "connection"
    | "other";
  status: number;
  /** One line from the API's error envelope. */
  message: string;
  code?: string;
  /** The request field the API named, such as `to` or `attachments.0.content`. */
  field?: string;
  hint?: string;
  requestId?: string;
  retryAfterSeconds?: number;
}

/** Every `/api` answer carries the retries the client made on the way, successful or not. */
export type Answer<T> = { data: T; retries: Retry[] } | { problem: Problem; retries: Retry[] };

/** A call the client retried that went through in the end. */
export interface Recovery {
  service: Service;
  method: string;
  path: string;
  /** How many retries it took. */
  retries: number;
}

/** What the relay answered about mail to an outside address (the Inbox API's `message.<outcome>` events). */
export type DeliveryOutcome = "delivered" | "delayed" | "bounced";

export type ServerEvent =
  | { type: "message.received"; inboxId: string; threadId: string; subject: string | null; from: string }
  /** The relay answered about a sent message: its thread shows each recipient's delivery status. */
  | { type: "message.delivery"; inboxId: string; threadId: string; outcome: DeliveryOutcome }
  | { type: "retry"; retry: Retry }
  | { type: "recovered"; recovery: Recovery };
