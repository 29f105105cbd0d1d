/** How much the fuzz suite runs: fixed by default so a run is reproducible, overridable from the environment. */
export interface FuzzSettings {
  /** The fast-check seed: the same seed draws the same requests. */
  seed: number;
  /** Requests drawn per service. */
  runs: number;
  /** Wall-clock budget per service, the coverage pass included; the run stops early (and says so) when it is spent. */
  timeLimitMs: number;
  /** Rounds of the coverage pass: at most this many requests to an operation before its success path counts missing. */
  coverageRounds: number;
}

/**
 * Requests drawn per operation of a service: the budget grows with the spec, so that each operation is drawn often
 * enough to reach its success path (about one draw in three is valid and names live ids).
 */
const RUNS_PER_OPERATION = 45;
/** Wall-clock allowance per request drawn: a few times what a request takes on a loaded two-core machine. */
const MS_PER_RUN = 30;
const MIN_TIME_LIMIT_MS = 15_000;
/**
 * The most rounds the coverage pass runs, each sending one request to every operation without a 2xx yet: the hardest
 * success paths (a valid request naming live ids of a kind few answers make) take some tens of draws, so an operation
 * still without one after this many has a real gap.
 */
const COVERAGE_ROUNDS = 100;
const SEED = 20_261_125;

function integerFromEnvironment(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") {
    return fallback;
  }
  const value = Number(raw);
  if (!Number.isSafeInteger(value)) {
    throw new Error(`${name} must be an integer, not '${raw}'.`);
  }
  return value;
}

/**
 * The settings for a service of `operationCount` operations; FUZZ_SEED, FUZZ_RUNS, FUZZ_TIME_LIMIT_MS and
 * FUZZ_COVERAGE_ROUNDS override.
 */
export function fuzzSettings(operationCount: number): FuzzSettings {
  const runs = integerFromEnvironment("FUZZ_RUNS", operationCount * RUNS_PER_OPERATION);
  return {
    seed: integerFromEnvironment("FUZZ_SEED", SEED),
    runs,
    timeLimitMs: integerFromEnvironment("FUZZ_TIME_LIMIT_MS", Math.max(MIN_TIME_LIMIT_MS, runs * MS_PER_RUN)),
    coverageRounds: integerFromEnvironment("FUZZ_COVERAGE_ROUNDS", COVERAGE_ROUNDS),
  };
}
