import { Agent, get, type IncomingMessage } from "node:http";
import { createHistogram } from "node:perf_hooks";
import type { LoadResult } from "./load.ts";

/** The bytes of an answer's status line and headers, as sent on the wire. */
function headBytes(response: IncomingMessage): number {
  let bytes = `HTTP/${response.httpVersion} ${response.statusCode} ${response.statusMessage}\r\n\r\n`.length;
  for (let i = 0; i + 1 < response.rawHeaders.length; i += 2) {
    bytes += `${response.rawHeaders[i]}: ${response.rawHeaders[i + 1]}\r\n`.length;
  }
  return bytes;
}

interface Answer {
  status: number;
  bytes: number;
}

function fetchOnce(url: URL, headers: Record<string, string>, agent: Agent): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = get(url, { agent, headers, timeout: 10_000 }, (response) => {
      let bytes = headBytes(response);
      response.on("data", (chunk: Buffer) => {
        bytes += chunk.length;
      });
      response.on("end", () => resolve({ status: response.statusCode ?? 0, bytes }));
      response.on("error", reject);
    });
    request.on("timeout", () => request.destroy(new Error(`GET ${url.pathname} timed out.`)));
    request.on("error", reject);
  });
}

/**
 * Sends GET `path` for `seconds` over `connections` kept-alive connections spread evenly over `targets`, each
 * connection one request after another, with Node's own HTTP client: its parser reads large bodies many times
 * faster than autocannon's (which measures itself, not the server, on answers of a megabyte). Bodies are streamed
 * and dropped. Fails when any request does not succeed.
 */
export async function runStreamingLoad(
  targets: readonly string[],
  request: { path: string; headers?: Record<string, string> },
  connections: number,
  seconds: number,
): Promise<LoadResult> {
  const agents = targets.map(() => new Agent({ keepAlive: true, maxSockets: connections }));
  const latencies = createHistogram();
  let requests = 0;
  let bytes = 0;
  let failures = 0;
  let firstError: unknown;
  const started = performance.now();
  const end = started + seconds * 1000;
  try {
    await Promise.all(
      Array.from({ length: connections }, async (_, connection) => {
        const target = connection % targets.length;
        const url = new URL(request.path, targets[target]);
        const agent = agents[target] as Agent;
        while (performance.now() < end) {
          const sent = performance.now();
          try {
            const answer = await fetchOnce(url, request.headers ?? {}, agent);
            latencies.record(Math.max(1, Math.round((performance.now() - sent) * 1e6)));
            requests++;
            bytes += answer.bytes;
            if (answer.status < 200 || answer.status > 299) {
              failures++;
            }
          } catch (error) {
            failures++;
            firstError ??= error;
          }
        }
      }),
    );
  } finally {
    for (const agent of agents) {
      agent.destroy();
    }
  }
  if (failures > 0) {
    throw new Error(`GET ${request.path}: ${failures} failed requests (first error: ${String(firstError ?? "none")}).`);
  }
  const elapsed = (performance.now() - started) / 1000;
  const milliseconds = (nanoseconds: number) => Math.round(nanoseconds / 1e5) / 10;
  return {
    rps: requests / elapsed,
    p50: milliseconds(latencies.percentile(50)),
    p99: milliseconds(latencies.percentile(99)),
    requests,
    bytesPerSecond: bytes / elapsed,
  };
}
