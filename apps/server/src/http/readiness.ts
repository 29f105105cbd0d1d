import type { MiddlewareHandler } from "hono";
import type { Clock } from "../clock.ts";
import type { ServerLogger } from "../logger.ts";
import type { DatabaseReadiness } from "../storage/schema-version.ts";

/** Why `/ready` answers 503: the database does not answer, its schema is not this build's, or the instance is stopping. */
export type NotReadyReason = "database" | "migrations" | "draining";

export interface ReadinessOptions {
  /** Checks the database: answers, and its schema is current (`Storage.readiness`). */
  check: () => Promise<DatabaseReadiness>;
  /** Reads the time a result was found at (the server's clock, which test control may move). */
  clock: Clock;
  /** How long a result is answered again before a probe checks anew. */
  freshForMs?: number;
  /** A check that has not answered by then counts as the database not answering. */
  answerWithinMs?: number;
  /** Told when the instance stops or starts being ready (not of each probe). */
  logger: ServerLogger;
}

/** Probes within a second of a check get its result: however often balancers ask, the database sees one query a second. */
export const READINESS_FRESH_FOR_MS = 1_000;
/** The longest a probe waits for the database's answer: well within a balancer's probe timeout (3 s suggested). */
export const READINESS_ANSWER_WITHIN_MS = 2_000;

interface Result {
  reason: Exclude<NotReadyReason, "draining"> | null;
  atMs: number;
}

const timedOut = (ms: number) =>
  new Promise<DatabaseReadiness>((resolve) => {
    const timer = setTimeout(
      () => resolve({ ready: false, reason: "database", detail: `no answer within ${ms} ms` }),
      ms,
    );
    timer.unref();
  });

/**
 * Whether this instance should be sent requests, as `/ready` answers it. Bounded work whatever the probes: concurrent
 * probes share one check, a result is answered again for {@link READINESS_FRESH_FOR_MS}, a probe waits at most
 * {@link READINESS_ANSWER_WITHIN_MS}, and while a check that ran out of time still runs no other starts.
 *
 * From {@link startDraining} on (the instance is stopping), every probe answers `draining` at once, without a check.
 */
export class Readiness {
  readonly #options: Required<ReadinessOptions>;
  #draining = false;
  #last: Result | undefined;
  /** The check probes are waiting for, shared by all of them. */
  #pending: Promise<Result> | undefined;
  /** A check still running after its probes were answered (it ran out of time): no second one starts beside it. */
  #running = false;

  constructor(options: ReadinessOptions) {
    this.#options = {
      freshForMs: READINESS_FRESH_FOR_MS,
      answerWithinMs: READINESS_ANSWER_WITHIN_MS,
      ...options,
    };
  }

  /** Whether the instance is stopping: from then on its answers close their connections (see service-app.ts). */
  get draining(): boolean {
    return this.#draining;
  }

  /** The instance is stopping: `/ready` answers 503 `draining` from now on, so that balancers stop sending to it. */
  startDraining(): void {
    this.#draining = true;
  }

  /** Null when ready; otherwise why not. */
  async notReadyReason(): Promise<NotReadyReason | null> {
    if (this.#draining) {
      return "draining";
    }
    const last = this.#last;
    const ageMs = last === undefined ? -1 : this.#options.clock.now() - last.atMs;
    // A clock that went back makes a result of unknown age: it is checked anew.
    if (last !== undefined && ageMs >= 0 && ageMs < this.#options.freshForMs) {
      return last.reason;
    }
    this.#pending ??= this.#check().finally(() => {
      this.#pending = undefined;
    });
    const { reason } = await this.#pending;
    return this.#draining ? "draining" : reason;
  }

  async #check(): Promise<Result> {
    let found: DatabaseReadiness;
    if (this.#running) {
      found = { ready: false, reason: "database", detail: "the previous check has not answered yet" };
    } else {
      this.#running = true;
      const check = this.#options
        .check()
        .catch((error: unknown): DatabaseReadiness => ({ ready: false, reason: "database", detail: String(error) }))
        .finally(() => {
          this.#running = false;
        });
      found = await Promise.race([check, timedOut(this.#options.answerWithinMs)]);
    }
    const result: Result = { reason: found.ready ? null : found.reason, atMs: this.#options.clock.now() };
    this.#logChange(found);
    this.#last = result;
    return result;
  }

  #logChange(found: DatabaseReadiness): void {
    const was = this.#last === undefined ? null : this.#last.reason;
    const now = found.ready ? null : found.reason;
    if (now === was) {
      return;
    }
    if (found.ready) {
      this.#options.logger.info("ready", {});
    } else {
      this.#options.logger.warn("not ready", { reason: found.reason, detail: found.detail });
    }
  }
}

/** `GET /ready`: 200 `{"status":"ready"}`, or 503 `{"status":"unavailable","reason":...}`; never cached by anyone. */
export const readinessRoute =
  (readiness: Readiness): MiddlewareHandler =>
  async (c) => {
    c.header("Cache-Control", "no-store");
    const reason = await readiness.notReadyReason();
    return reason === null ? c.json({ status: "ready" }, 200) : c.json({ status: "unavailable", reason }, 503);
  };
