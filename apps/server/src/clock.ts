/** The server's notion of "now", injectable so tests of time-dependent rules do not sleep. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** ISO 8601 in UTC with milliseconds, the format of every timestamp the APIs answer. */
export const isoTimestamp = (epochMs: number): string => new Date(epochMs).toISOString();
