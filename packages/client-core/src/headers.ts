/** Header sources accepted by `mergeHeaders`; in a record, `null` deletes the header and `undefined` leaves it alone. */
export type HeadersSource = HeadersInit | Record<string, string | null | undefined> | null | undefined;

/** Browsers forbid setting User-Agent from script, so clients identify themselves with this header instead. */
export const CLIENT_HEADER = "x-pigeonhole-client";

/** Merges header sources left to right: later values win, `null` removes a header set earlier. */
export function mergeHeaders(...sources: HeadersSource[]): Headers {
  const result = new Headers();
  for (const source of sources) {
    if (source === null || source === undefined) {
      continue;
    }
    if (source instanceof Headers || Array.isArray(source)) {
      for (const [name, value] of new Headers(source)) {
        result.set(name, value);
      }
      continue;
    }
    for (const [name, value] of Object.entries(source)) {
      if (value === null) {
        result.delete(name);
      } else if (value !== undefined) {
        result.set(name, value);
      }
    }
  }
  return result;
}

/** `{ "x-pigeonhole-client": "<name>/<version>" }`, e.g. `@pigeonhole/inbox/0.1.0`. */
export function clientHeaders(name: string, version: string): Record<string, string> {
  return { [CLIENT_HEADER]: `${name}/${version}` };
}
