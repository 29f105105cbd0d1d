import type { Clock, CreateFaultRequest, ErrorResponse, Fault } from "@pigeonhole/test-control-types";
import type { Server } from "../../src/server.ts";

/** A JSON answer of test control, or of a service under a fault: its status, headers and parsed body. */
export interface JsonAnswer<Body = unknown> {
  status: number;
  headers: Headers;
  body: Body;
}

/** A JSON answer with how long it took and when it arrived (`performance.now()`), for the waits' timing. */
export interface TimedAnswer<Body = unknown> extends JsonAnswer<Body> {
  arrivedAt: number;
  elapsedMs: number;
}

/** Query parameters of a GET; an array repeats its parameter once per value. */
export type Query = Record<string, string | number | readonly string[] | undefined>;

/** Calls test control of `server` (`/_test` on the inbox port, unless `base` names the forum port) with its key. */
export function testControlOf(server: Server<string | null>, base = server.inbox.url) {
  const control = server.testControl;
  if (!control) {
    throw new Error("Test control is off on this server.");
  }
  const call = async <Body = unknown>(method: string, path: string, body?: unknown): Promise<JsonAnswer<Body>> => {
    const response = await fetch(`${base}/_test${path}`, {
      method,
      headers: {
        authorization: `Bearer ${control.key}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      body: (text === "" ? undefined : JSON.parse(text)) as Body,
    };
  };
  /** A GET of `path` with `query`, timed; `signal` abandons it (the server sees the client go away). */
  const get = async <Body = ErrorResponse>(
    path: string,
    query: Query = {},
    signal?: AbortSignal,
  ): Promise<TimedAnswer<Body>> => {
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) {
      for (const each of value === undefined ? [] : Array.isArray(value) ? value : [value]) {
        search.append(name, String(each));
      }
    }
    const started = performance.now();
    const response = await fetch(`${base}/_test${path}?${search}`, {
      headers: { authorization: `Bearer ${control.key}` },
      signal,
    });
    const body = (await response.json()) as Body;
    const arrivedAt = performance.now();
    return { status: response.status, headers: response.headers, body, arrivedAt, elapsedMs: arrivedAt - started };
  };
  return {
    call,
    get,
    clock: () => call<Clock>("GET", "/clock"),
    advance: (ms: number) => call<Clock>("POST", "/clock/advance", { ms }),
    setClock: (change: { now?: string; frozen?: boolean }) => call<Clock>("PUT", "/clock", change),
    async addFault(fault: CreateFaultRequest): Promise<Fault> {
      const answer = await call<Fault>("POST", "/faults", fault);
      if (answer.status !== 201) {
        throw new Error(`Create Fault answered ${answer.status}: ${JSON.stringify(answer.body)}`);
      }
      return answer.body;
    },
    fault: (faultId: string) => call<Fault>("GET", `/faults/${faultId}`),
    reset: (apiKey?: string) => call("POST", "/reset", apiKey === undefined ? undefined : { api_key: apiKey }),
  };
}
