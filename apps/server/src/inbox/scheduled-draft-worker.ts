import type { Clock } from "../clock.ts";
import { isoTimestamp } from "../clock.ts";
import type { ServerLogger } from "../logger.ts";
import type { Instruments } from "../metrics/instruments.ts";
import { NO_INSTRUMENTS } from "../metrics/instruments.ts";
import { DEFAULT_CLAIM_LEASE_MS } from "../options/defaults.ts";
import type { ClaimedDraft, DraftQueue } from "../storage/inbox/draft-store.ts";
import { ClaimLoop } from "../work-queue/claim-loop.ts";
import type { DraftSendContext } from "./draft-sending.ts";
import { sendStoredDraft } from "./draft-sending.ts";
import { InboxProblem } from "./inbox-errors.ts";

export interface ScheduledDraftWorkerOptions {
  queue: DraftQueue;
  /** The drafts, the inboxes and the send path a scheduled draft goes out through. */
  sending: DraftSendContext;
  /** This instance's name on the drafts it claims. */
  instanceId: string;
  /** Whether this is the only instance on the database: on start it takes over every claim. */
  soleInstance: boolean;
  /** The server's clock, by which drafts fall due (test control's when it is on). */
  clock: Clock;
  /** Real time, by which claims hold (see `ClaimLoopOptions.claimClock`). Default `clock`. */
  claimClock?: Clock;
  logger: ServerLogger;
  /** The longest this instance holds a draft for one send. */
  claimMs: number;
  /** How long a claim holds unless renewed. Default {@link DEFAULT_CLAIM_LEASE_MS}, at most `claimMs`. */
  leaseMs?: number;
  /** Drafts sent at the same time. */
  concurrency: number;
  /** How often the drafts are checked when nothing wakes the worker. Default 500 ms. */
  pollIntervalMs?: number;
  /** Counts the drafts claimed. Default: nothing is counted. */
  instruments?: Instruments;
}

/**
 * Sends each scheduled draft once its `send_at` has come, by the server's clock, through the send path of Send
 * Message. Every instance on the database runs one; a draft is claimed by one instance at a time, and every send of
 * a draft carries the draft's own idempotency key, so that a draft whose instance stopped after sending it and
 * before deleting it is not sent again by the instance that takes it over. A draft the send path refuses (no
 * recipient, the daily limit, an inbox gone) stays, `failed`, until it is changed or sent by hand.
 */
export class ScheduledDraftWorker {
  readonly #options: ScheduledDraftWorkerOptions;
  readonly #loop: ClaimLoop<ClaimedDraft>;

  constructor(options: ScheduledDraftWorkerOptions) {
    this.#options = options;
    this.#loop = new ClaimLoop({
      ...options,
      queueName: "scheduled_drafts",
      describeClaim: (draft) => ({ draft_id: draft.draftId }),
      meter: (options.instruments ?? NO_INSTRUMENTS).workQueue,
      leaseMs: options.leaseMs ?? DEFAULT_CLAIM_LEASE_MS,
      attempt: (draft) => this.#attempt(draft),
    });
  }

  start(): Promise<void> {
    return this.#loop.start();
  }

  /** Looks at the drafts now (the clock moved forward, or a draft was scheduled). */
  wake(): void {
    this.#loop.wake();
  }

  /** Stops claiming, lets the sends in flight finish and hands the claims left back. */
  stop(): Promise<void> {
    return this.#loop.stop();
  }

  async #attempt(claim: ClaimedDraft): Promise<void> {
    const { sending, instanceId, clock, logger } = this.#options;
    const stored = await sending.drafts.findDraft({ podId: claim.podId }, claim.draftId);
    // Deleted, sent by hand, or rescheduled since it was claimed: nothing to send now.
    if (!stored || stored.draft.claimed_by !== instanceId || stored.draft.status !== "scheduled") {
      return;
    }
    if ((stored.draft.next_attempt_at_ms ?? Number.POSITIVE_INFINITY) > clock.now()) {
      return;
    }
    try {
      await sendStoredDraft(sending, stored);
    } catch (error) {
      if (!(error instanceof InboxProblem)) {
        // The database could not be reached: the claim runs out and the draft is tried again.
        throw error;
      }
      logger.warn("scheduled draft refused", { draft_id: claim.draftId, code: error.code, reason: error.message });
      await sending.drafts.markFailed(claim.draftId, instanceId, isoTimestamp(clock.now()));
    }
  }
}
