/** "0.5 s", "42 s", "3 min", "11 h 6 min". */
export function formatDuration(seconds: number): string {
  if (seconds < 10) {
    return `${Math.round(seconds * 10) / 10} s`;
  }
  if (seconds < 90) {
    return `${Math.round(seconds)} s`;
  }
  const minutes = Math.round(seconds / 60);
  return minutes < 60 ? `${minutes} min` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

export function formatTime(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { dateStyle: "short", timeStyle: "short" });
}

/** The address in `Ada Lovelace <ada@example.com>`, or the whole text when it is a bare address. */
export function addressOf(from: string): string {
  return /<([^<>]+)>\s*$/.exec(from)?.[1] ?? from.trim();
}
