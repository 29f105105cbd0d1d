/** A span of time in parts, added up: `{ days: 1, hours: 2 }` is 26 hours. Every part defaults to 0. */
export interface Duration {
  days?: number;
  hours?: number;
  minutes?: number;
  seconds?: number;
  ms?: number;
}

const MS_PER = { days: 86_400_000, hours: 3_600_000, minutes: 60_000, seconds: 1_000, ms: 1 } as const;

/**
 * The milliseconds of a duration given as a number of milliseconds or in parts. Anything but a whole number of
 * milliseconds of at least 1 is refused here, with the value in the message, rather than by the server.
 */
export function toMilliseconds(duration: number | Duration): number {
  const total =
    typeof duration === "number"
      ? duration
      : Object.entries(MS_PER).reduce((sum, [part, ms]) => sum + (duration[part as keyof Duration] ?? 0) * ms, 0);
  if (!(Number.isSafeInteger(total) && total >= 1)) {
    throw new RangeError(
      `A duration must be a whole number of milliseconds, at least 1; got ${typeof duration === "number" ? duration : `${JSON.stringify(duration)} (${total} ms)`}.`,
    );
  }
  return total;
}
