import { WebSocket } from "ws";

/** A test's connection to the live event stream, with every text message it received, in order. */
export interface StreamConnection {
  ws: WebSocket;
  /** Parsed messages, in arrival order. */
  messages: Record<string, unknown>[];
  /** Resolves once `count` messages in all have arrived (rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<Record<string, unknown>[]>;
  /** The close code once the connection closes. */
  closed: Promise<number>;
  send(value: unknown): void;
}

/** Opens the stream of `baseUrl` (`http://...`) with the key in the header or in the query. */
export async function connectStream(
  baseUrl: string,
  apiKey: string,
  keyIn: "header" | "query" = "header",
): Promise<StreamConnection> {
  const url = new URL("/v0/ws", baseUrl.replace(/^http/, "ws"));
  if (keyIn === "query") {
    url.searchParams.set("api_key", apiKey);
  }
  const ws = new WebSocket(url, keyIn === "header" ? { headers: { Authorization: `Bearer ${apiKey}` } } : {});
  const messages: Record<string, unknown>[] = [];
  const waiters = new Set<() => void>();
  ws.on("message", (data) => {
    messages.push(JSON.parse(String(data)) as Record<string, unknown>);
    for (const wake of waiters) {
      wake();
    }
  });
  const closed = new Promise<number>((resolve) => ws.on("close", (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    ws.once("open", () => resolve());
    ws.once("error", reject);
  });
  return {
    ws,
    messages,
    closed,
    send: (value) => ws.send(typeof value === "string" ? value : JSON.stringify(value)),
    waitFor(count, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (messages.length >= count) {
            clearTimeout(timer);
            waiters.delete(check);
            resolve(messages.slice(0, count));
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`Expected ${count} messages, got ${messages.length}: ${JSON.stringify(messages)}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
  };
}

/** Answers the upgrade request's HTTP status, headers and body when the server refuses it. */
export function refusedUpgrade(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string; headers: Record<string, string | string[] | undefined> }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url.replace(/^http/, "ws"), { headers });
    ws.on("unexpected-response", (_request, response) => {
      let body = "";
      response.on("data", (chunk: Buffer) => {
        body += chunk.toString();
      });
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body, headers: response.headers }));
    });
    ws.on("open", () => reject(new Error("The upgrade was accepted.")));
    ws.on("error", () => {});
  });
}
