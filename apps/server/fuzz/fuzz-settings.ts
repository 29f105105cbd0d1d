/** How much the fuzz suite runs: fixed by default so a run is reproducible, overridable from the environment. */
export interface FuzzSettings {
  /** The fast-check seed: the same seed draws the same requests. */
  seed: number;
  /** Requests drawn per service. */
  runs: number;
  /** Wall-clock budget per service; the run stops early (and says so) when it is spent. */
  timeLimitMs: number;
}

const DEFAULTS: FuzzSettings = { seed: 20_261_125, runs: 1_500, timeLimitMs: 15_000 };

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

export function fuzzSettings(): FuzzSettings {
  return {
    seed: integerFromEnvironment("FUZZ_SEED", DEFAULTS.seed),
    runs: integerFromEnvironment("FUZZ_RUNS", DEFAULTS.runs),
    timeLimitMs: integerFromEnvironment("FUZZ_TIME_LIMIT_MS", DEFAULTS.timeLimitMs),
  };
}
