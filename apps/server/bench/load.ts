import autocannon from "autocannon";

/** One kind of request, sent to every target at the same path. */
export interface LoadRequest {
  /** Path and query, such as `/api/v1/posts?sort=hot`. */
  path: string;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
  /**
   * Varies each request: the `n`-th request the run sends gets this path and these headers instead (the voting
   * scenario sends each vote as another agent on another post).
   */
  vary?: (n: number) => { path: string; headers: Record<string, string> };
}

export interface LoadResult {
  /** Mean requests per second over the run, all targets together. */
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  /** Mean bytes per second of the answers (headers and bodies), all targets together. */
  bytesPerSecond: number;
}

// autocannon spreads connections over several URLs (connection i goes to url i mod n, all counted in one latency
// histogram), as its README documents; its type declarations only know a single URL.
type MultiTargetOptions = Omit<autocannon.Options, "url"> & { url: string | string[] };
const runAutocannon = autocannon as (options: MultiTargetOptions) => Promise<autocannon.Result>;

/**
 * Sends `request` for `seconds` over `connections` connections spread evenly over `targets` (base addresses), and
 * fails when any request does not succeed.
 */
export async function runLoad(
  targets: readonly string[],
  request: LoadRequest,
  connections: number,
  seconds: number,
): Promise<LoadResult> {
  let sent = 0;
  const { vary } = request;
  const result = await runAutocannon({
    url: targets.map((target) => `${target}${request.path}`),
    method: request.method ?? "GET",
    headers: request.headers,
    body: request.body,
    connections,
    duration: seconds,
    ...(vary
      ? {
          requests: [
            {
              setupRequest: (sending: autocannon.Request) => {
                const { path, headers } = vary(sent++);
                return { ...sending, path, headers: { ...sending.headers, ...headers } };
              },
            },
          ],
        }
      : {}),
  });
  const failures = result.non2xx + result.errors + result.timeouts;
  if (failures > 0) {
    throw new Error(
      `${request.method ?? "GET"} ${request.path}: ${failures} failed requests ` +
        `(non-2xx ${result.non2xx}, errors ${result.errors}, timeouts ${result.timeouts}).`,
    );
  }
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    bytesPerSecond: result.throughput.average,
  };
}
