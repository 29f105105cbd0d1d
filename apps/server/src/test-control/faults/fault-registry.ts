import type {
  CreateFaultRequest,
  Fault,
  MailFault,
  RequestAction,
  RequestFault,
  WebhookAction,
  WebhookFault,
} from "@pigeonhole/test-control-types";
import type { Clock } from "../../clock.ts";
import { isoTimestamp } from "../../clock.ts";
import { randomBase62 } from "../../ids.ts";
import type { ServerLogger } from "../../logger.ts";
import { matchesPathPattern } from "./path-pattern.ts";

/** A request as a request fault matches it. */
export interface FaultedRequest {
  method: string;
  /** The path without its query string. */
  path: string;
  /** The `Authorization: Bearer` key, if one was sent. */
  apiKey: string | undefined;
}

/** A webhook delivery attempt as a webhook fault matches it. */
export interface FaultedDelivery {
  webhookId: string;
  eventType: string;
  eventId: string;
}

/** A fault that applies to one match: its id and what to do. */
export interface AppliedFault<Action> {
  faultId: string;
  action: Action;
}

/** The outcome a mail fault gives a recipient, in the outbound mail's vocabulary. */
export type MailFaultOutcome = "bounce" | "delay";

const normalizeAddress = (address: string) => address.trim().toLowerCase();

/**
 * The faults of this server instance, in memory, oldest first: each applies to the next `times` matches, the
 * oldest armed one winning when several match. Spent faults stay listed until deleted. Every applied fault is
 * written to the log as `fault applied`, with its id, target and action.
 */
export class FaultRegistry {
  readonly #faults = new Map<string, Fault>();
  readonly #clock: Clock;
  readonly #logger: ServerLogger;

  constructor(clock: Clock, logger: ServerLogger) {
    this.#clock = clock;
    this.#logger = logger;
  }

  create(request: CreateFaultRequest): Fault {
    const times = request.times ?? 1;
    const id = `flt_${randomBase62(16)}`;
    const counts = { times, remaining: times, hits: 0, created_at: isoTimestamp(this.#clock.now()) };
    const fault: Fault =
      request.target === "request"
        ? { fault_id: id, target: "request", match: request.match, action: request.action, ...counts }
        : request.target === "webhook"
          ? { fault_id: id, target: "webhook", match: request.match, action: request.action, ...counts }
          : { fault_id: id, target: "mail", match: request.match, action: request.action, ...counts };
    this.#faults.set(fault.fault_id, fault);
    return structuredClone(fault);
  }

  list(): Fault[] {
    return [...this.#faults.values()].map((fault) => structuredClone(fault));
  }

  get(faultId: string): Fault | undefined {
    const fault = this.#faults.get(faultId);
    return fault && structuredClone(fault);
  }

  delete(faultId: string): boolean {
    return this.#faults.delete(faultId);
  }

  clear(): void {
    this.#faults.clear();
  }

  /** Whether no fault is registered: then nothing about a request needs reading to know none applies. */
  get isEmpty(): boolean {
    return this.#faults.size === 0;
  }

  /** The request fault that applies to this request, counted as a hit; undefined when none does. */
  takeRequestFault(request: FaultedRequest): AppliedFault<RequestAction> | undefined {
    return this.#take<RequestFault>(
      "request",
      ({ match }) =>
        (match.method === undefined || match.method === request.method.toUpperCase()) &&
        (match.api_key === undefined || match.api_key === request.apiKey) &&
        matchesPathPattern(match.path, request.path),
      { method: request.method, path: request.path },
    );
  }

  /** The webhook fault that applies to this delivery attempt, counted as a hit; undefined when none does. */
  takeWebhookFault(delivery: FaultedDelivery): AppliedFault<WebhookAction> | undefined {
    return this.#take<WebhookFault>(
      "webhook",
      ({ match }) =>
        (match.webhook_id === undefined || match.webhook_id === delivery.webhookId) &&
        (match.event_type === undefined || match.event_type === delivery.eventType),
      { webhook_id: delivery.webhookId, event_id: delivery.eventId, event_type: delivery.eventType },
    );
  }

  /**
   * What a mail fault makes of the next mail to `recipient` (an outside recipient), counted as a hit; undefined
   * when no fault applies. Its signature is the outbound mail's `simulateOutcome` hook.
   */
  takeMailFault(recipient: string): MailFaultOutcome | undefined {
    const address = normalizeAddress(recipient);
    const applied = this.#take<MailFault>("mail", ({ match }) => normalizeAddress(match.to) === address, {
      recipient: address,
    });
    return applied?.action.type;
  }

  /** The oldest armed fault of `target` that `matches`, counted as a hit and logged. */
  #take<Kind extends Fault>(
    target: Kind["target"],
    matches: (fault: Kind) => boolean,
    context: Record<string, string>,
  ): AppliedFault<Kind["action"]> | undefined {
    for (const fault of this.#faults.values()) {
      // A fault's `target` tells its kind.
      if (fault.target !== target || fault.remaining === 0 || !matches(fault as Kind)) {
        continue;
      }
      fault.remaining -= 1;
      fault.hits += 1;
      this.#logger.info("fault applied", {
        fault_id: fault.fault_id,
        target,
        action: fault.action.type,
        remaining: fault.remaining,
        ...context,
      });
      return { faultId: fault.fault_id, action: fault.action as Kind["action"] };
    }
    return undefined;
  }
}
