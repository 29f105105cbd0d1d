import fc from "fast-check";

/** One operation's requests, drawn by fast-check. */
export interface OperationDrafts<Draft> {
  operationId: string;
  drafts: fc.Arbitrary<Draft>;
}

export interface CoveragePassSettings {
  /** The run's seed: each round draws from a seed of its own derived from it, so a pass is reproducible. */
  seed: number;
  /** At most this many requests per operation. */
  rounds: number;
  /** `performance.now()` past which no request is sent. */
  deadline: number;
}

export interface CoveragePassOutcome {
  /** Rounds started. */
  rounds: number;
  /** Requests sent. */
  requests: number;
  /** Whether the deadline stopped the pass while an operation still lacked a success. */
  cut: boolean;
  /** Operations still without a 2xx when the pass ended. */
  uncovered: string[];
}

/**
 * Every this many rounds, the pass visits the operations already covered too: some success paths need data that other
 * operations make (a post in a community of one's own to pin, an entry of a list to read), and one success of those
 * is seldom enough.
 */
const FULL_ROUND_EVERY = 4;

/**
 * Visits the operations round-robin, one request each per round, until each has answered 2xx (`covered`) or `rounds`
 * rounds have passed: each round the operations without a 2xx yet, and every {@link FULL_ROUND_EVERY}th round all of
 * them. Drawing by operation rather than from all of them at once spends the requests where coverage is still missing,
 * so that a run the time limit stops has still tried every operation, as often as every other one not yet covered.
 */
export async function runCoveragePass<Draft>(
  operations: readonly OperationDrafts<Draft>[],
  covered: (operationId: string) => boolean,
  exercise: (draft: Draft) => Promise<void>,
  settings: CoveragePassSettings,
): Promise<CoveragePassOutcome> {
  let requests = 0;
  const outcome = (rounds: number, cut: boolean): CoveragePassOutcome => ({
    rounds,
    requests,
    cut,
    uncovered: operations.map((operation) => operation.operationId).filter((id) => !covered(id)),
  });
  for (let round = 0; round < settings.rounds; round++) {
    const pending = operations.filter((operation) => !covered(operation.operationId));
    if (pending.length === 0) {
      return outcome(round, false);
    }
    const visited = round % FULL_ROUND_EVERY === FULL_ROUND_EVERY - 1 ? operations : pending;
    for (const [index, operation] of visited.entries()) {
      if (performance.now() >= settings.deadline) {
        return outcome(round + 1, true);
      }
      const [draft] = fc.sample(operation.drafts, { seed: roundSeed(settings.seed, round, index), numRuns: 1 });
      if (draft === undefined) {
        continue;
      }
      requests++;
      await exercise(draft);
    }
  }
  return outcome(settings.rounds, false);
}

/** A seed of its own for each draw of a pass: distinct for each round and place, and the same on every run. */
export function roundSeed(seed: number, round: number, index: number): number {
  return (seed + Math.imul(round + 1, 0x9e3779b1) + Math.imul(index + 1, 0x85ebca6b)) | 0;
}
