// What the rooms tell metrics, as small interfaces of plain calls: the rooms depend on these, never on the metrics
// library, and with metrics off they are handed the no-op below, so that counting costs one empty call.

/** Answers of one service's HTTP API. */
export interface RequestMeter {
  /**
   * One request answered: `operation` is the spec's operationId or a fixed name (`health`, `ready`, `not_found`...),
   * never taken from the path, so that the labels stay few whatever a client requests.
   */
  answered(service: string, operation: string, status: number, durationSeconds: number): void;
}

/** The work queues the instances share (see work-queue/). */
export interface WorkQueueMeter {
  /** `rows` rows of `queue` claimed by this instance for an attempt. */
  claimed(queue: string, rows: number): void;
}

/** How a claimed webhook delivery ended: sent, failed and due again later, failed for good, or dropped. */
export type WebhookDeliveryOutcome = "delivered" | "retrying" | "failed" | "cancelled";

export interface WebhookDeliveryMeter {
  finished(outcome: WebhookDeliveryOutcome): void;
}

/** How one attempt to relay mail to one outside recipient ended. */
export type OutboundMailOutcome = "delivered" | "delayed" | "bounced";

export interface OutboundMailMeter {
  attempted(outcome: OutboundMailOutcome): void;
}

/** The SMTP listener; each `reason` is one of a fixed set the listener names. */
export interface SmtpMeter {
  sessionOpened(): void;
  sessionClosed(): void;
  connectionRefused(reason: string): void;
  recipientRefused(reason: string): void;
  messageAccepted(): void;
  messageRefused(reason: string): void;
}

/** Every meter of a server. */
export interface Instruments {
  readonly workQueue: WorkQueueMeter;
  readonly webhookDeliveries: WebhookDeliveryMeter;
  readonly outboundMail: OutboundMailMeter;
  readonly smtp: SmtpMeter;
}

const ignore = (): void => {};

/** What the rooms are handed when metrics are off: every call does nothing. */
export const NO_INSTRUMENTS: Instruments = {
  workQueue: { claimed: ignore },
  webhookDeliveries: { finished: ignore },
  outboundMail: { attempted: ignore },
  smtp: {
    sessionOpened: ignore,
    sessionClosed: ignore,
    connectionRefused: ignore,
    recipientRefused: ignore,
    messageAccepted: ignore,
    messageRefused: ignore,
  },
};
