import type { LogFields, ServerLogger } from "../logger.ts";

/** An error's message, with its cause's (a failed fetch says why only in its cause). */
const describeError = (error: unknown): string => {
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : "";
    return `${error.message}${cause}`;
  }
  return String(error);
};

/**
 * The log lines of a claim loop's failures, one message each whatever the queue, with the queue's name in `queue`: an
 * operator filters one queue, or sees every queue's failures of one kind, with one field.
 */
export class ClaimLoopLog<Claim> {
  readonly #logger: ServerLogger;
  readonly #queue: string;
  readonly #describe: (claim: Claim) => LogFields;

  constructor(logger: ServerLogger, queue: string, describe: (claim: Claim) => LogFields) {
    this.#logger = logger;
    this.#queue = queue;
    this.#describe = describe;
  }

  attemptFailed(claim: Claim, error: unknown): void {
    this.#logger.error("work queue outcome could not be recorded", {
      queue: this.#queue,
      ...this.#describe(claim),
      error: describeError(error),
    });
  }

  queueFailed(error: unknown): void {
    this.#logger.error("work queue could not be read", { queue: this.#queue, error: describeError(error) });
  }

  releaseFailed(error: unknown): void {
    this.#logger.warn("work queue claims could not be handed back", {
      queue: this.#queue,
      error: describeError(error),
    });
  }

  renewFailed(error: unknown): void {
    this.#logger.warn("work queue claims could not be renewed", { queue: this.#queue, error: describeError(error) });
  }
}
