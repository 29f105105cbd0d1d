import type { Clock, CreateFaultRequest, Fault } from "@pigeonhole/test-control-types";
import type { Server } from "../server.ts";

/** A JSON answer of test control, or of a service under a fault: its status, headers and parsed body. */
export interface JsonAnswer<Body = unknown> {
  status: number;
  headers: Headers;
  body: Body;
}

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
  return {
    call,
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
