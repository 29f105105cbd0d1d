import type { Clock } from "../clock.ts";
import { isoTimestamp } from "../clock.ts";
import type { ServerLogger } from "../logger.ts";
import type { OutcomeSimulator } from "../mail/outbound/outcome-simulator.ts";
import type { RelayOutcome, RelayTransport } from "../mail/outbound/relay-transport.ts";
import type { SimulatedOutcome } from "../mail/outbound/simulated-outcome.ts";
import { simulatedReply } from "../mail/outbound/simulated-outcome.ts";
import type { Instruments, OutboundMailOutcome } from "../metrics/instruments.ts";
import { NO_INSTRUMENTS } from "../metrics/instruments.ts";
import { DEFAULT_CLAIM_LEASE_MS } from "../options/defaults.ts";
import type { ClaimedMail, MailAttemptState, MailQueue } from "../storage/inbox/mail-queue.ts";
import type { SendStore } from "../storage/inbox/send-store.ts";
import { withoutBcc } from "../without-bcc.ts";
import { ClaimLoop } from "../work-queue/claim-loop.ts";
import { EventRecorder } from "./event-recorder.ts";
import { newEventId } from "./webhooks/events.ts";
import type { OutcomeSubject } from "./webhooks/mail-outcome-events.ts";
import {
  messageBouncedEvent,
  messageComplainedEvent,
  messageDelayedEvent,
  messageDeliveredEvent,
} from "./webhooks/mail-outcome-events.ts";

export interface OutboundMailWorkerOptions {
  queue: MailQueue;
  /** Outcomes are recorded in a send transaction, with their events (event log and webhook outbox). */
  sends: SendStore;
  /** The relay, or null when none is configured (the worker then only works off simulated recipients). */
  relay: RelayTransport | null;
  /** Decides which recipients get a simulated outcome instead of the relay; the sends share it. */
  simulator?: OutcomeSimulator;
  /** This instance's name on the recipients it claims. */
  instanceId: string;
  /** Whether this is the only instance on the database: on start it takes over every claim. */
  soleInstance: boolean;
  clock: Clock;
  /** Real time, by which claims hold (see `ClaimLoopOptions.claimClock`). Default `clock`. */
  claimClock?: Clock;
  logger: ServerLogger;
  /** The n-th temporary failure of a recipient waits `retryDelaysMs[n - 1]`; after the last, it has bounced. */
  retryDelaysMs: readonly number[];
  /** The longest this instance holds a recipient for one attempt (its claim is no longer renewed after that). */
  claimMs: number;
  /**
   * How long a claim holds unless renewed; renewed every third of it while the attempt runs, so that the recipients
   * of an instance that crashed are taken over within this long. Default {@link DEFAULT_CLAIM_LEASE_MS}, at most
   * `claimMs`.
   */
  leaseMs?: number;
  /** Recipients relayed at the same time. */
  concurrency: number;
  /** How often the queue is checked when nothing wakes the worker (other instances queue too). Default 500 ms. */
  pollIntervalMs?: number;
  /** Counts the recipients claimed and how each attempt ended. Default: nothing is counted. */
  instruments?: Instruments;
}

type OutcomeEvent = { event_type: string; event_id: string };

/** How an attempt ended, as metrics count it: an attempt leaves its recipient delivered, bounced, or delayed. */
const outcomeOf = (state: MailAttemptState): OutboundMailOutcome =>
  state.status === "delivered" || state.status === "bounced" ? state.status : "delayed";

/**
 * Relays the mail of outside recipients through the configured relay, from the queue the sends write in their
 * transaction. Every instance on the database runs one; each recipient is claimed by one instance at a time, on a
 * lease it renews while the attempt runs, and each outcome is committed as soon as the relay answers, with its
 * event, so that a recipient the relay accepted is not sent again. A crash between the relay's answer and that
 * commit sends the message to that recipient again once the lease runs out (or at once after a restart on SQLite).
 */
export class OutboundMailWorker {
  readonly #options: OutboundMailWorkerOptions;
  readonly #loop: ClaimLoop<ClaimedMail>;

  constructor(options: OutboundMailWorkerOptions) {
    if (options.relay === null && options.simulator === undefined) {
      throw new Error("The outbound mail worker needs a relay or a simulator.");
    }
    this.#options = options;
    this.#loop = new ClaimLoop({
      ...options,
      queueName: "outbound_mail",
      describeClaim: (mail) => ({ message_id: mail.messageId, recipient: mail.address }),
      meter: this.#instruments.workQueue,
      leaseMs: options.leaseMs ?? DEFAULT_CLAIM_LEASE_MS,
      attempt: (mail) => this.#attempt(mail),
    });
  }

  get #instruments(): Instruments {
    return this.#options.instruments ?? NO_INSTRUMENTS;
  }

  start(): Promise<void> {
    return this.#loop.start();
  }

  /** Looks at the queue now (called after a send that queued mail has committed). */
  wake(): void {
    this.#loop.wake();
  }

  /**
   * Stops claiming, lets the attempts in flight get their answer and records it (each is bounded by the relay
   * timeout), hands the claims left back and closes the relay connections.
   */
  async stop(): Promise<void> {
    await this.#loop.stop();
    this.#options.relay?.close();
  }

  /** Where this recipient's outcome comes from: a simulation, or the relay. */
  #route(mail: ClaimedMail): { simulated: SimulatedOutcome } | { relay: RelayTransport } {
    const { relay, simulator, logger } = this.#options;
    const simulated = simulator?.outcomeFor(mail.messageId, mail.address);
    if (simulated !== undefined) {
      return { simulated };
    }
    if (relay) {
      return { relay };
    }
    // Only simulated recipients wait when there is no relay; this one's plan went with a restart (a fault on an
    // ordinary address, kept in memory), so it gets the plainest outcome rather than waiting for ever.
    logger.warn("simulated outcome lost with a restart; delivered", {
      message_id: mail.messageId,
      recipient: mail.address,
    });
    return { simulated: "delivered" };
  }

  async #attempt(mail: ClaimedMail): Promise<void> {
    const { clock, logger } = this.#options;
    const route = this.#route(mail);
    const simulated = "simulated" in route ? route.simulated : null;
    const outcome =
      "relay" in route
        ? await route.relay.relay(mail.inboxId, mail.address, withoutBcc(mail.source))
        : simulatedReply(route.simulated, mail.address, mail.status === "queued");
    const nowMs = clock.now();
    const { state, events } = this.#consequences(mail, outcome, nowMs, simulated === "complaint");
    const recorded = await this.#options.sends.inSendTransaction(async (tx) => {
      if (!(await tx.recordMailAttempt(mail.seq, this.#options.instanceId, state))) {
        return false;
      }
      if (events.length > 0) {
        const recorder = new EventRecorder(tx);
        for (const event of events) {
          await recorder.record(mail.podId, mail.inboxId, event);
        }
        await recorder.store(state.updatedAt, nowMs);
      }
      return true;
    });
    const fields = {
      message_id: mail.messageId,
      recipient: mail.address,
      attempt: state.attempts,
      status: state.status,
      reply: outcome.reply,
      ...(simulated === null ? {} : { simulated }),
    };
    if (recorded && state.nextAttemptAtMs === null) {
      this.#options.simulator?.settle(mail.messageId, mail.address);
    }
    if (recorded) {
      this.#instruments.outboundMail.attempted(outcomeOf(state));
    }
    if (!recorded) {
      logger.warn("outbound mail claim ran out before its outcome was recorded", fields);
    } else if (state.status === "delivered") {
      logger.info(simulated === null ? "mail relayed" : "mail delivery simulated", fields);
    } else {
      logger.warn(state.status === "bounced" ? "mail bounced" : "mail delayed; will retry", fields);
    }
  }

  /**
   * The recipient's new state after the relay's answer, and the events it raises, in order. A simulated complaint
   * follows the delivery at once, in the same commit, so it is never lost between the two.
   */
  #consequences(
    mail: ClaimedMail,
    outcome: RelayOutcome,
    nowMs: number,
    complaint: boolean,
  ): { state: MailAttemptState; events: OutcomeEvent[] } {
    const at = isoTimestamp(nowMs);
    const attempts = mail.attempts + 1;
    const subject: OutcomeSubject = {
      inboxId: mail.inboxId,
      threadId: mail.threadId,
      messageId: mail.messageId,
      timestamp: at,
    };
    const replies = [{ address: mail.address, status: outcome.reply }];
    const final = (status: "delivered" | "bounced"): MailAttemptState => ({
      status,
      smtpReply: outcome.reply,
      attempts,
      updatedAt: at,
      nextAttemptAtMs: null,
    });
    if (outcome.kind === "accepted") {
      const delivered = messageDeliveredEvent(newEventId(), subject, [mail.address]);
      return {
        state: final("delivered"),
        events: complaint ? [delivered, messageComplainedEvent(newEventId(), subject, [mail.address])] : [delivered],
      };
    }
    if (outcome.kind === "permanent") {
      return { state: final("bounced"), events: [messageBouncedEvent(newEventId(), subject, "Permanent", replies)] };
    }
    const delay = this.#options.retryDelaysMs[attempts - 1];
    if (delay === undefined) {
      return { state: final("bounced"), events: [messageBouncedEvent(newEventId(), subject, "Transient", replies)] };
    }
    const nextAttemptAtMs = nowMs + delay;
    const state: MailAttemptState = {
      status: "delayed",
      smtpReply: outcome.reply,
      attempts,
      updatedAt: at,
      nextAttemptAtMs,
    };
    // Only the first temporary failure is told; the later ones only move the next attempt.
    const events =
      mail.status === "queued"
        ? [messageDelayedEvent(newEventId(), subject, replies, isoTimestamp(nextAttemptAtMs))]
        : [];
    return { state, events };
  }
}
