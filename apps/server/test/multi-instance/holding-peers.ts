import type { ServerResponse } from "node:http";
import { createServer as createHttpServer } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { createServer as createTcpServer } from "node:net";

// Peers that keep an attempt in flight for as long as a test needs: a webhook receiver that holds its answers, and
// a relay that accepts connections and never greets. A test waits on what they saw, never on a timer.

/** Resolves once `done()` holds, looking again at each change `onChange` reports; rejects after `timeoutMs`. */
function waitUntil(
  done: () => boolean,
  onChange: (notify: () => void) => () => void,
  timeoutMs: number,
  what: string,
): Promise<void> {
  if (done()) {
    return Promise.resolve();
  }
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`Timed out after ${timeoutMs} ms waiting for ${what}.`));
    }, timeoutMs);
    const stop = onChange(() => {
      if (done()) {
        clearTimeout(timer);
        stop();
        resolve();
      }
    });
  });
}

/** Listeners told of each change, each until it unsubscribes. */
function changes() {
  const listeners = new Set<() => void>();
  return {
    notify: () => {
      for (const listener of [...listeners]) {
        listener();
      }
    },
    subscribe: (listener: () => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** A webhook delivery the receiver took in full: the message it is about, and when it was answered (if it was). */
export interface HeldRequest {
  messageId: string;
  answeredAt: number | null;
}

/**
 * A webhook receiver (`message.sent` events) that holds its answers while holding (from the start), and answers 200
 * otherwise: `answerFromNowOn()` answers every later request at once, `release()` the requests held too.
 */
export async function startHoldingReceiver() {
  const requests: HeldRequest[] = [];
  const held: { request: HeldRequest; response: ServerResponse }[] = [];
  let holding = true;
  const changed = changes();
  const answer = (request: HeldRequest, response: ServerResponse) => {
    request.answeredAt = Date.now();
    response.writeHead(200).end();
  };
  const server = createHttpServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { send: { message_id: string } };
      const request: HeldRequest = { messageId: body.send.message_id, answeredAt: null };
      requests.push(request);
      if (holding) {
        held.push({ request, response });
      } else {
        answer(request, response);
      }
      changed.notify();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const answered = () => requests.filter((request) => request.answeredAt !== null);
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    requests: () => requests,
    answered,
    /** Answers every request from now on at once; those held stay unanswered (their sender may be dead). */
    answerFromNowOn() {
      holding = false;
    },
    /** Answers the requests held and, from now on, every request at once. */
    release() {
      holding = false;
      for (const { request, response } of held.splice(0)) {
        answer(request, response);
      }
      changed.notify();
    },
    waitForRequests: (count: number, timeoutMs = 20_000) =>
      waitUntil(() => requests.length >= count, changed.subscribe, timeoutMs, `${count} webhook requests`),
    waitForAnswered: (count: number, timeoutMs: number) =>
      waitUntil(() => answered().length >= count, changed.subscribe, timeoutMs, `${count} answered webhook requests`),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A relay that hangs: it accepts SMTP connections on 127.0.0.1 and never sends its greeting, so that every relay
 * attempt stays in flight until its sender times out or dies. It counts the connections it accepted.
 */
export async function startHangingRelay() {
  let connections = 0;
  const sockets = new Set<Socket>();
  const changed = changes();
  const server = createTcpServer((socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on("error", () => {});
    socket.on("close", () => sockets.delete(socket));
    socket.resume();
    changed.notify();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `smtp://127.0.0.1:${(server.address() as AddressInfo).port}`,
    /** Connections accepted so far. */
    connections: () => connections,
    waitForConnections: (count: number, timeoutMs = 20_000) =>
      waitUntil(() => connections >= count, changed.subscribe, timeoutMs, `${count} relay connections`),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) {
          socket.destroy();
        }
        server.close(() => resolve());
      }),
  };
}
