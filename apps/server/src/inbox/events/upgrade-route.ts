import type { IncomingMessage } from "node:http";
import { STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";
import type { Context, Hono } from "hono";
import type { ServiceEnv } from "../../http/service-env.ts";
import type { InboxCaller } from "../../keys/api-keys.ts";
import { InboxProblem } from "../inbox-errors.ts";
import type { AcceptedUpgrade, EventStream } from "./event-stream.ts";

/** The path of the live event stream. */
export const EVENT_STREAM_PATH = "/v0/ws";

/** The same stream where AgentMail's SDK opens it (`websockets.connect()`): the upgrade on the API's root. */
export const AGENTMAIL_EVENT_STREAM_PATH = "/v0";

/** Seconds a client refused for holding too many connections is told to wait (`Retry-After`). */
const CONNECTION_RETRY_AFTER_SECONDS = 5;

/**
 * What an upgrade request carries into the app, beside Node's request: a way to accept the upgrade, which answers
 * false when the key already holds as many connections as it may.
 */
interface UpgradeBinding {
  incoming: IncomingMessage;
  upgrade: { accept(upgrade: AcceptedUpgrade): boolean };
}

const upgradeOf = (env: unknown): UpgradeBinding["upgrade"] | undefined =>
  env !== null && typeof env === "object" && "upgrade" in env ? (env as UpgradeBinding).upgrade : undefined;

/**
 * The stream's route. A WebSocket upgrade reaches it through the app like any request (request id, rate limit,
 * authentication), and is accepted here unless its key holds too many connections (429 `TOO_MANY_CONNECTIONS`); a
 * plain GET is answered 426.
 */
export async function eventStreamRoute(c: Context<ServiceEnv<InboxCaller>>): Promise<Response> {
  const upgrade = upgradeOf(c.env);
  if (!upgrade || c.req.header("upgrade")?.toLowerCase() !== "websocket") {
    c.header("Upgrade", "websocket");
    return c.json(
      {
        error: {
          type: "validation_error",
          message: "This is the live event stream: open it as a WebSocket (GET with 'Upgrade: websocket').",
          details: { field: null, code: "UPGRADE_REQUIRED" },
        },
      },
      426,
    );
  }
  const accepted = { caller: c.get("caller"), requestId: c.get("requestId"), clientAddress: c.get("clientAddress") };
  if (!upgrade.accept(accepted)) {
    throw new InboxProblem(
      429,
      "TOO_MANY_CONNECTIONS",
      "This API key holds as many live event connections as it may; close one before opening another.",
      { retryAfterSeconds: CONNECTION_RETRY_AFTER_SECONDS },
    );
  }
  c.set("upgraded", true);
  return c.body(null, 200);
}

/**
 * Serves the upgrade requests of a Node server: each goes through the app first, which answers it over HTTP (401,
 * 429, 404, ...) in the service's envelope, or accepts it, and the stream then completes the handshake.
 */
export function handleUpgrades(app: Pick<Hono<ServiceEnv<InboxCaller>>, "fetch">, stream: EventStream) {
  return (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on("error", () => socket.destroy());
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) {
      for (const each of Array.isArray(value) ? value : value === undefined ? [] : [value]) {
        headers.append(name, each);
      }
    }
    let accepted: AcceptedUpgrade | undefined;
    const binding: UpgradeBinding = {
      incoming: request,
      upgrade: {
        accept(upgrade) {
          if (!stream.admit(upgrade.caller.podId, socket)) {
            return false;
          }
          accepted = upgrade;
          return true;
        },
      },
    };
    const fetched = Promise.resolve(
      app.fetch(
        new Request(new URL(request.url ?? "/", "http://localhost"), { method: request.method, headers }),
        binding,
      ),
    );
    fetched.then(
      async (response) => {
        if (accepted) {
          stream.accept(request, socket, head, accepted);
        } else {
          await writeResponse(socket, response);
        }
      },
      () => socket.destroy(),
    );
  };
}

/** Writes an answer to a request whose connection Node handed over, and closes the connection. */
async function writeResponse(socket: Duplex, response: Response) {
  const body = Buffer.from(await response.arrayBuffer());
  const lines = [`HTTP/1.1 ${response.status} ${STATUS_CODES[response.status] ?? ""}`];
  response.headers.forEach((value, name) => {
    if (name !== "content-length" && name !== "connection" && name !== "transfer-encoding") {
      lines.push(`${name}: ${value}`);
    }
  });
  lines.push(`Content-Length: ${body.length}`, "Connection: close", "", "");
  socket.end(Buffer.concat([Buffer.from(lines.join("\r\n")), body]));
}
