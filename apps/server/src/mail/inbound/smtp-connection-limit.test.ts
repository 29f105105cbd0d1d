import type { Socket } from "node:net";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestServer } from "../../testing/test-server.ts";
import { startTestServer } from "../../testing/test-server.ts";

// Raw TCP clients, so the test decides exactly how many connections are open and when each one ends.

const REPLY_TIMEOUT_MS = 5_000;

/** A plain socket to the SMTP port that collects the server's reply lines and notices when the server closes it. */
class SmtpSocket {
  readonly socket: Socket;
  readonly lines: string[] = [];
  readonly closed: Promise<void>;
  #buffer = "";
  #waiters: (() => void)[] = [];

  private constructor(socket: Socket) {
    this.socket = socket;
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      this.#buffer += chunk;
      const parts = this.#buffer.split("\r\n");
      this.#buffer = parts.pop() ?? "";
      this.lines.push(...parts);
      for (const wake of this.#waiters.splice(0)) {
        wake();
      }
    });
    this.closed = new Promise((resolve) => socket.once("close", () => resolve()));
  }

  static async open(port: number): Promise<SmtpSocket> {
    const socket = connect({ host: "127.0.0.1", port });
    await new Promise<void>((resolve, reject) => {
      socket.once("connect", resolve);
      socket.once("error", reject);
    });
    return new SmtpSocket(socket);
  }

  /** The next complete reply line from `from` on (bounded by REPLY_TIMEOUT_MS). */
  async line(from: number): Promise<string> {
    const deadline = Date.now() + REPLY_TIMEOUT_MS;
    while (this.lines.length <= from) {
      if (Date.now() > deadline) {
        throw new Error(`No reply line ${from} within ${REPLY_TIMEOUT_MS} ms; got ${JSON.stringify(this.lines)}`);
      }
      await Promise.race([
        new Promise<void>((resolve) => this.#waiters.push(resolve)),
        new Promise((resolve) => setTimeout(resolve, 100)),
      ]);
    }
    return this.lines[from] ?? "";
  }

  /** Sends a command and resolves with the last line of its reply (multi-line replies end with `code SP`). */
  async command(text: string): Promise<string> {
    let index = this.lines.length;
    this.socket.write(`${text}\r\n`);
    for (;;) {
      const line = await this.line(index);
      if (/^\d{3} /.test(line)) {
        return line;
      }
      index++;
    }
  }

  async closedWithin(ms: number): Promise<boolean> {
    return Promise.race([
      this.closed.then(() => true),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms)),
    ]);
  }
}

let t: TestServer;
let port: number;
const open: SmtpSocket[] = [];
beforeAll(async () => {
  t = await startTestServer({ smtpPort: 0, smtpConnectionsPerAddress: 2 });
  port = t.server.smtp?.port ?? 0;
});
afterAll(async () => {
  for (const client of open) {
    client.socket.destroy();
  }
  await t.server.close();
});

async function openClient(): Promise<SmtpSocket> {
  const client = await SmtpSocket.open(port);
  open.push(client);
  return client;
}

describe("SMTP connections per client address", () => {
  it("refuses a connection over the limit with 421 and closes it, and serves a new one once another has ended", async () => {
    const first = await openClient();
    const second = await openClient();
    expect(await first.line(0)).toMatch(/^220 /);
    expect(await second.line(0)).toMatch(/^220 /);

    const third = await openClient();
    expect(await third.line(0)).toMatch(/^421 4\.7\.0 /);
    expect(await third.closedWithin(REPLY_TIMEOUT_MS)).toBe(true);
    expect(third.lines).toHaveLength(1);

    // The connections within the limit are unaffected by the refusal.
    expect(await first.command("EHLO client.example")).toMatch(/^250 /);
    expect(await second.command("NOOP")).toMatch(/^250 /);

    expect(await first.command("QUIT")).toMatch(/^221 /);
    expect(await first.closedWithin(REPLY_TIMEOUT_MS)).toBe(true);

    // The server counts the ended connection out when its side of the socket closes, which may come just after the
    // client saw it close: a newcomer is served at the latest within a short, bounded wait.
    const deadline = Date.now() + REPLY_TIMEOUT_MS;
    let greeting = "";
    let refusals = 0;
    while (Date.now() < deadline) {
      const next = await openClient();
      greeting = await next.line(0);
      if (greeting.startsWith("220 ")) {
        expect(await next.command("EHLO client.example")).toMatch(/^250 /);
        break;
      }
      refusals++;
      await next.closed;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(greeting).toMatch(/^220 /);
    expect(refusals).toBeLessThan(5);

    // Two are open again (second and the newcomer), so the limit holds as before.
    const over = await openClient();
    expect(await over.line(0)).toMatch(/^421 /);
    expect(await over.closedWithin(REPLY_TIMEOUT_MS)).toBe(true);
  });
});
