import { once } from "node:events";
import type { Socket } from "node:net";
import { connect } from "node:net";
import { Hono } from "hono";
import { afterEach, describe, expect, it } from "vitest";
import type { ListenOptions, RunningServer } from "./listen.ts";
import { listen } from "./listen.ts";

const servers: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close(100)));
});

async function start(options: ListenOptions): Promise<RunningServer> {
  const app = new Hono();
  app.get("/", (c) => c.text("ok"));
  app.post("/echo", async (c) => c.text(await c.req.text()));
  // Reading the body fails when the server cuts a slow client off; the answer then goes nowhere.
  app.onError((_error, c) => c.text("aborted", 500));
  const server = await listen(app, "127.0.0.1", 0, options);
  servers.push(server);
  return server;
}

/**
 * Opens a raw connection, writes `text` and nothing more, and reports what the server sent and how long it kept
 * the connection open. Gives up (and fails) after `limitMs`.
 */
function trickle(port: number, text: string, limitMs = 5_000): Promise<{ received: string; openForMs: number }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    const started = performance.now();
    let received = "";
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`The server kept the connection open for more than ${limitMs} ms.`));
    }, limitMs);
    socket.on("data", (chunk: Buffer) => {
      received += chunk.toString("latin1");
    });
    socket.on("error", () => {
      // A reset closes the connection too; "close" reports it.
    });
    socket.on("close", () => {
      clearTimeout(timer);
      resolve({ received, openForMs: performance.now() - started });
    });
    socket.write(text);
  });
}

describe("listen", () => {
  it("cuts off a client that never finishes its headers, while other requests are served", async () => {
    const server = await start({ headersTimeoutMs: 300, requestTimeoutMs: 2_000 });
    const slow = trickle(server.port, "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ");
    const response = await fetch(`${server.url}/`);
    expect([response.status, await response.text()]).toEqual([200, "ok"]);
    const { received, openForMs } = await slow;
    expect(received).toMatch(/^HTTP\/1\.1 408 /);
    expect(openForMs).toBeGreaterThanOrEqual(250);
    expect(openForMs).toBeLessThan(1_500);
  });

  it("cuts off a client that never finishes its body", async () => {
    const server = await start({ headersTimeoutMs: 300, requestTimeoutMs: 800 });
    const { received, openForMs } = await trickle(
      server.port,
      "POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\nContent-Length: 100\r\n\r\nonly ten..",
    );
    expect(received).toMatch(/^HTTP\/1\.1 408 /);
    expect(openForMs).toBeGreaterThanOrEqual(750);
    expect(openForMs).toBeLessThan(2_500);
  });

  it("serves a whole request and closes the idle keep-alive connection after its timeout", async () => {
    const server = await start({ keepAliveTimeoutMs: 300 });
    const { received, openForMs } = await trickle(
      server.port,
      "POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5\r\n\r\nhello",
    );
    expect(received).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(received).toMatch(/\r\n\r\nhello$/);
    // Node adds a second to the advertised keep-alive time before closing, so clients close first.
    expect(openForMs).toBeGreaterThanOrEqual(250);
    expect(openForMs).toBeLessThan(2_500);
  });

  it("drains: ends the connections open then after their next answer, keeps new ones, and spares idle ones on close", async () => {
    const server = await start({ keepAliveTimeoutMs: 60_000 });
    const before = new Connection(server.port);
    expect(await before.get()).toMatch(/^HTTP\/1\.1 200 OK\r\n/);

    server.drain();
    // Open before the drain: it ends after this answer.
    expect(await before.get()).toMatch(/\r\nConnection: close\r\n/i);
    await before.closed;
    // Opened during the drain: kept, as a balancer still sending here would reuse it.
    const during = new Connection(server.port);
    expect(await during.get()).toMatch(/\r\nConnection: keep-alive\r\n/i);

    // Idle as the port closes: a request its holder sends now is answered, not cut, and the answer ends it.
    const closed = server.close(60_000);
    await expect(fetch(`${server.url}/`)).rejects.toThrow();
    expect(await during.get()).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*Connection: close\r\n/i);
    await during.closed;
    await closed;
  });
});

/** A raw keep-alive connection, sending one GET at a time and answering with the next answer's bytes. */
class Connection {
  readonly #socket: Socket;
  readonly closed: Promise<unknown>;

  constructor(port: number) {
    this.#socket = connect(port, "127.0.0.1");
    this.closed = once(this.#socket, "close");
  }

  async get(): Promise<string> {
    this.#socket.write("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    const [chunk] = (await once(this.#socket, "data")) as [Buffer];
    return chunk.toString("latin1");
  }
}
