import type { ErrorResponse } from "@pigeonhole/test-control-types";

/** One answer of test control, with how long it took and when it arrived (`performance.now()`). */
export interface TimedAnswer<Body> {
  status: number;
  body: Body;
  arrivedAt: number;
  elapsedMs: number;
}

type Query = Record<string, string | number | readonly string[] | undefined>;

/** A GET of test control with its key: `path` under `/_test`, repeated query parameters from arrays. */
export async function testControlGet<Body = ErrorResponse>(
  control: { url: string; key: string },
  path: string,
  query: Query = {},
  signal?: AbortSignal,
): Promise<TimedAnswer<Body>> {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    for (const each of value === undefined ? [] : Array.isArray(value) ? value : [value]) {
      search.append(name, String(each));
    }
  }
  const started = performance.now();
  const response = await fetch(`${control.url}${path}?${search}`, {
    headers: { Authorization: `Bearer ${control.key}` },
    signal,
  });
  const body = (await response.json()) as Body;
  const arrivedAt = performance.now();
  return { status: response.status, body, arrivedAt, elapsedMs: arrivedAt - started };
}
