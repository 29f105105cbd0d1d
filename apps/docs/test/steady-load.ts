import { Agent, request } from "node:https";
import { setTimeout as pause } from "node:timers/promises";

/** One request of the load, with the status that counts as its success. */
export interface LoadRequest {
  readonly method: "GET" | "POST";
  /** The site's name: sent as SNI and as the Host header. */
  readonly host: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: unknown;
  readonly expected: number;
}

/** A request that did not get its expected answer: another status, or no answer at all. */
export interface LoadFailure {
  readonly request: string;
  /** The status it got, or the connection error. */
  readonly outcome: string;
  readonly atMs: number;
}

export interface LoadTally {
  /** When each successful answer arrived (`performance.now()`), in order. */
  readonly succeededAtMs: readonly number[];
  readonly failures: readonly LoadFailure[];
}

export interface SteadyLoadOptions {
  /** Where the balancer listens (on 127.0.0.1), and the certificates its sites present. */
  readonly port: number;
  readonly ca: string | Buffer;
  /** How many clients send at once, each one request after another on a keep-alive connection of its own. */
  readonly clients: number;
  /** A client's pause after each answer, so that the load is steady rather than as fast as the machine goes. */
  readonly pauseMs: number;
  /** The load stops after this many requests in all, or this long, whichever comes first. */
  readonly maxRequests: number;
  readonly maxMs: number;
  /** The `sequence`th request of client `client`. */
  next(client: number, sequence: number): LoadRequest;
}

export interface SteadyLoad {
  /** What has been answered so far. */
  readonly tally: LoadTally;
  /** Whether it stopped by itself, having reached its count or its time. */
  readonly exhausted: () => boolean;
  /** Stops the clients, waits for the requests they have in flight, and answers the tally. */
  stop(): Promise<LoadTally>;
}

/** Each request gives up after this long: a balancer that holds one longer counts as a failure. */
const REQUEST_TIMEOUT_MS = 15_000;

function send(agent: Agent, port: number, ca: string | Buffer, load: LoadRequest): Promise<string | number> {
  const body = load.body === undefined ? undefined : JSON.stringify(load.body);
  return new Promise((resolve) => {
    const outgoing = request(
      {
        host: "127.0.0.1",
        port,
        servername: load.host,
        ca,
        agent,
        method: load.method,
        path: load.path,
        headers: {
          host: `${load.host}:${port}`,
          ...load.headers,
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        timeout: REQUEST_TIMEOUT_MS,
      },
      (response) => {
        response.resume();
        response.on("end", () => resolve(response.statusCode ?? 0));
        response.on("error", (error) => resolve(`answer cut: ${error.message}`));
      },
    );
    outgoing.on("timeout", () => outgoing.destroy(new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms`)));
    outgoing.on("error", (error) => resolve(`${(error as NodeJS.ErrnoException).code ?? ""} ${error.message}`.trim()));
    outgoing.end(body);
  });
}

/**
 * Clients that send requests through a TLS balancer until stopped, bounded in count and time, and count every answer
 * that is not the expected one and every request that got no answer.
 */
export function startSteadyLoad(options: SteadyLoadOptions): SteadyLoad {
  const succeededAtMs: number[] = [];
  const failures: LoadFailure[] = [];
  const deadline = performance.now() + options.maxMs;
  let sent = 0;
  let stopped = false;
  const runOut = () => sent >= options.maxRequests || performance.now() >= deadline;

  const client = async (index: number) => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      for (let sequence = 0; !stopped && !runOut(); sequence++) {
        sent++;
        const load = options.next(index, sequence);
        const outcome = await send(agent, options.port, options.ca, load);
        if (outcome === load.expected) {
          succeededAtMs.push(performance.now());
        } else {
          failures.push({
            request: `${load.method} ${load.host}${load.path}`,
            outcome: String(outcome),
            atMs: performance.now(),
          });
        }
        await pause(options.pauseMs);
      }
    } finally {
      agent.destroy();
    }
  };
  const running = Promise.all(Array.from({ length: options.clients }, (_, index) => client(index)));
  const tally = { succeededAtMs, failures };
  return {
    tally,
    exhausted: runOut,
    async stop() {
      stopped = true;
      await running;
      return tally;
    },
  };
}
