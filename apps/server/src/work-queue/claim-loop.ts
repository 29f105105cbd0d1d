import type { Clock } from "../clock.ts";
import type { LogFields, ServerLogger } from "../logger.ts";
import type { WorkQueueMeter } from "../metrics/instruments.ts";
import type { ClaimQueue } from "../storage/claimed-rows.ts";
import { ClaimLoopLog } from "./claim-loop-log.ts";
import { ClaimRenewals } from "./claim-renewals.ts";

/** The queue a loop works off, how it claims, and what the worker it runs for does with a claimed row. */
export interface ClaimLoopOptions<Claim extends { seq: number }> {
  queue: ClaimQueue<Claim>;
  /** The queue's name in log lines and metrics (`queue`), such as `webhook_deliveries`. */
  queueName: string;
  /** Told when the queue cannot be read or a claim cannot be recorded, renewed or handed back. */
  logger: ServerLogger;
  /** What a log line about one claimed row names of it (an event or message id). */
  describeClaim(claim: Claim): LogFields;
  /** Counts the rows claimed. Default: nothing is counted. */
  meter?: WorkQueueMeter;
  /** This instance's name on the rows it claims. */
  instanceId: string;
  /** Whether this is the only instance on the database: on start it takes over every claim. */
  soleInstance: boolean;
  /** The server's clock, by which rows fall due. */
  clock: Clock;
  /**
   * Real time, by which claims hold (default `clock`): under test control `clock` can jump forward, which must not
   * make the claims of attempts in flight look run out.
   */
  claimClock?: Clock;
  /**
   * The longest this instance holds a row for one attempt: past it the claim is no longer renewed and runs out, so
   * that an attempt that hangs does not keep its row from the other instances for ever.
   */
  claimMs: number;
  /**
   * How long a claim holds unless it is renewed (default, and at most, `claimMs`). The loop renews the claims of its
   * attempts in flight every third of it, in one statement, so that the claims of an instance that died run out
   * within one lease while a live instance keeps its rows however long an attempt takes (up to `claimMs`).
   */
  leaseMs?: number;
  /** Rows attempted at the same time. */
  concurrency: number;
  /**
   * Rows of one group (a pod's, as `groupOf` tells) attempted at the same time at most, so that one group's slow rows
   * never take every slot. Without it, rows are claimed oldest first whatever their group.
   */
  share?: { perGroup: number; groupOf(claim: Claim): string };
  /** How often the queue is checked when nothing wakes the loop (other instances queue too). Default 500 ms. */
  pollIntervalMs?: number;
  /** Works one claimed row and records its outcome, which ends the claim. */
  attempt(claim: Claim): Promise<void>;
}

const NO_METER: WorkQueueMeter = { claimed: () => {} };

/**
 * Works off a queue shared by the instances on a database: claims the rows that are due, up to the concurrency (and,
 * with a share, up to each group's share of it), for one lease, renewed while their attempts run; looks again when
 * woken (after a commit that queued work), when an attempt ends, when the next row is due, and at least every poll
 * interval; on stop, waits for the attempts in flight and hands the claims left back.
 */
export class ClaimLoop<Claim extends { seq: number }> {
  readonly #options: Required<Omit<ClaimLoopOptions<Claim>, "share">> & Pick<ClaimLoopOptions<Claim>, "share">;
  readonly #log: ClaimLoopLog<Claim>;
  readonly #inFlight = new Map<number, Promise<void>>();
  /** When (by the claim clock) each row in flight was claimed: its claim is renewed until `claimMs` after that. */
  readonly #claimedAt = new Map<number, number>();
  readonly #renewals: ClaimRenewals;
  /** Rows in flight by group, when the loop keeps a share per group. */
  readonly #inFlightByGroup = new Map<string, number>();
  #timer: NodeJS.Timeout | undefined;
  #running = false;
  #passQueued = false;
  #pass: Promise<void> | undefined;

  constructor(options: ClaimLoopOptions<Claim>) {
    const leaseMs = Math.min(options.leaseMs ?? options.claimMs, options.claimMs);
    this.#options = { pollIntervalMs: 500, claimClock: options.clock, meter: NO_METER, ...options, leaseMs };
    this.#log = new ClaimLoopLog(options.logger, options.queueName, options.describeClaim);
    this.#renewals = new ClaimRenewals(Math.max(1, Math.floor(leaseMs / 3)), () => this.#renewHeld());
  }

  async start(): Promise<void> {
    this.#running = true;
    if (this.#options.soleInstance) {
      await this.#options.queue.releaseAllClaims(this.#options.clock.now());
    }
    this.#renewals.start();
    this.wake();
  }

  /** Looks at the queue now. */
  wake(): void {
    if (!this.#running) {
      return;
    }
    if (this.#pass) {
      this.#passQueued = true;
      return;
    }
    clearTimeout(this.#timer);
    this.#pass = this.#runPass().then((nextDueAt) => {
      this.#pass = undefined;
      if (this.#passQueued) {
        this.#passQueued = false;
        this.wake();
      } else {
        this.#schedule(nextDueAt);
      }
    });
  }

  /**
   * Stops claiming, waits for the attempts in flight, then hands this instance's claims back: the rows stay due, and
   * other instances (or this one after a restart) take them at once. `abandon` runs once claiming has stopped, to
   * cut the attempts in flight short.
   */
  async stop(abandon?: () => void): Promise<void> {
    this.#running = false;
    clearTimeout(this.#timer);
    abandon?.();
    await this.#pass;
    await Promise.allSettled(this.#inFlight.values());
    // Renewed until now, since the attempts in flight could take longer than a lease to end.
    await this.#renewals.stop();
    try {
      await this.#options.queue.releaseClaims(this.#options.instanceId);
    } catch (error) {
      // They run out by themselves.
      this.#log.releaseFailed(error);
    }
  }

  /** Resolves once nothing is in flight. */
  async idle(): Promise<void> {
    while (this.#pass || this.#inFlight.size > 0) {
      await this.#pass;
      await Promise.allSettled(this.#inFlight.values());
    }
  }

  /** Sleeps until the next row is due, but at most the poll interval (other instances may queue too). */
  #schedule(nextDueAt: number | null) {
    if (!this.#running) {
      return;
    }
    const untilDue = nextDueAt === null ? Number.POSITIVE_INFINITY : nextDueAt - this.#options.clock.now();
    this.#timer = setTimeout(() => this.wake(), Math.max(0, Math.min(untilDue, this.#options.pollIntervalMs)));
    this.#timer.unref();
  }

  /**
   * Starts the attempts that are due and answers when the next row not yet started is due; null (look again at the
   * next poll, or when an attempt ends) when rows due at the claim were left because their group had its share.
   */
  async #runPass(): Promise<number | null> {
    const { queue, clock, claimClock, concurrency, instanceId, leaseMs, share } = this.#options;
    try {
      const free = concurrency - this.#inFlight.size;
      if (free <= 0) {
        return null;
      }
      const claimNow = claimClock.now();
      const dueMs = clock.now();
      const claims = await queue.claimDue({
        claimant: instanceId,
        dueMs,
        nowMs: claimNow,
        untilMs: claimNow + leaseMs,
        limit: free,
        ...(share ? { share: { perGroup: share.perGroup, inFlight: new Map(this.#inFlightByGroup) } } : {}),
      });
      let started = 0;
      for (const claim of claims) {
        started += this.#track(claim, claimNow) ? 1 : 0;
      }
      if (started > 0) {
        this.#options.meter.claimed(this.#options.queueName, started);
      }
      const nextDueAt = await queue.nextDueAt(claimClock.now());
      // Fewer rows than asked for although some were due: those wait for their group's attempts to end (which wakes
      // the loop), and looking again at once would only find them again.
      const leftDue = claims.length < free && nextDueAt !== null && nextDueAt <= dueMs;
      return leftDue ? null : nextDueAt;
    } catch (error) {
      // Looked at again at the next poll.
      this.#log.queueFailed(error);
      return null;
    }
  }

  /**
   * Extends the claims of the attempts in flight by one lease, in one statement, except those claimed `claimMs` ago
   * or more (the extension would pass it): those run out, and the row goes to whichever instance claims it next.
   */
  async #renewHeld(): Promise<void> {
    const { queue, claimClock, instanceId, claimMs, leaseMs } = this.#options;
    const untilMs = claimClock.now() + leaseMs;
    const seqs = [...this.#claimedAt].filter(([, claimedAt]) => untilMs <= claimedAt + claimMs).map(([seq]) => seq);
    if (seqs.length === 0) {
      return;
    }
    try {
      await queue.renewClaims(instanceId, seqs, untilMs);
    } catch (error) {
      // Tried again a third of a lease later; a claim that runs out meanwhile may be taken by another instance, whose
      // attempt then counts, not this one's.
      this.#log.renewFailed(error);
    }
  }

  /**
   * Attempts a claimed row, counting it in flight (and in its group's share) until the attempt ends; false when the
   * row was already in flight here.
   */
  #track(claim: Claim, claimedAt: number): boolean {
    if (this.#inFlight.has(claim.seq)) {
      // Its claim ran out unrenewed while its attempt still runs, and this loop claimed it again: one attempt at a
      // time, the one in flight (which the new claim covers), and the row is not counted as claimed twice.
      return false;
    }
    this.#claimedAt.set(claim.seq, claimedAt);
    const group = this.#options.share?.groupOf(claim);
    if (group !== undefined) {
      this.#inFlightByGroup.set(group, (this.#inFlightByGroup.get(group) ?? 0) + 1);
    }
    const attempt = this.#options
      .attempt(claim)
      // The outcome could not be recorded (the database is unreachable): the claim runs out and the row is tried again.
      .catch((error: unknown) => this.#log.attemptFailed(claim, error))
      .finally(() => {
        this.#inFlight.delete(claim.seq);
        this.#claimedAt.delete(claim.seq);
        if (group !== undefined) {
          const left = (this.#inFlightByGroup.get(group) ?? 1) - 1;
          if (left > 0) {
            this.#inFlightByGroup.set(group, left);
          } else {
            this.#inFlightByGroup.delete(group);
          }
        }
        if (this.#running) {
          this.wake();
        }
      });
    this.#inFlight.set(claim.seq, attempt);
    return true;
  }
}
