import type { Socket } from "node:net";
import { connect } from "node:net";

/** How long a reply may take by default; every wait is bounded. */
export const DEFAULT_REPLY_TIMEOUT_MS = 10_000;

/**
 * A plain socket to an SMTP port that sends exactly the bytes it is given and collects the server's reply lines: for
 * tests and benchmarks that need to control what a real client library would not send (huge headers, endless data,
 * connections held open).
 */
export class RawSmtpClient {
  readonly socket: Socket;
  readonly lines: string[] = [];
  readonly closed: Promise<void>;
  #buffer = "";
  #waiters: (() => void)[] = [];

  private constructor(socket: Socket) {
    this.socket = socket;
    socket.setEncoding("latin1");
    socket.on("data", (chunk: string) => {
      this.#buffer += chunk;
      const parts = this.#buffer.split("\r\n");
      this.#buffer = parts.pop() ?? "";
      this.lines.push(...parts);
      this.#wake();
    });
    // A server that closes the connection in the middle of a long write answers the write with a reset.
    socket.on("error", () => this.#wake());
    this.closed = new Promise((resolve) =>
      socket.once("close", () => {
        this.#wake();
        resolve();
      }),
    );
  }

  static async open(port: number, host = "127.0.0.1"): Promise<RawSmtpClient> {
    const socket = connect({ host, port });
    await new Promise<void>((resolve, reject) => {
      socket.once("connect", resolve);
      socket.once("error", reject);
    });
    return new RawSmtpClient(socket);
  }

  #wake(): void {
    for (const wake of this.#waiters.splice(0)) {
      wake();
    }
  }

  get isClosed(): boolean {
    return this.socket.destroyed;
  }

  /** The reply line at `index` (0 is the greeting), once it has come. */
  async line(index: number, timeoutMs = DEFAULT_REPLY_TIMEOUT_MS): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    while (this.lines.length <= index) {
      if (this.isClosed) {
        throw new Error(`The server closed the connection before reply line ${index}; got ${this.#seen()}`);
      }
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new Error(`No reply line ${index} within ${timeoutMs} ms; got ${this.#seen()}`);
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 100));
        this.#waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.lines[index] ?? "";
  }

  /** The last line of the complete reply that starts at line `from` (multi-line replies end with `code SP`). */
  async reply(from: number, timeoutMs = DEFAULT_REPLY_TIMEOUT_MS): Promise<string> {
    for (let index = from; ; index++) {
      const line = await this.line(index, timeoutMs);
      if (/^\d{3}(?: |$)/.test(line)) {
        return line;
      }
    }
  }

  /** Sends a command line and resolves with the last line of its reply. */
  async command(text: string, timeoutMs = DEFAULT_REPLY_TIMEOUT_MS): Promise<string> {
    const from = this.lines.length;
    this.socket.write(`${text}\r\n`);
    return this.reply(from, timeoutMs);
  }

  /**
   * Writes bytes as they are and waits until the socket takes more (backpressure), so a client streaming a huge
   * message holds only one chunk at a time. Resolves false once the server has closed the connection.
   */
  async write(bytes: Buffer | string): Promise<boolean> {
    if (this.isClosed) {
      return false;
    }
    if (this.socket.write(bytes)) {
      return true;
    }
    await new Promise<void>((resolve) => {
      const done = () => {
        this.socket.off("drain", done);
        this.socket.off("close", done);
        resolve();
      };
      this.socket.once("drain", done);
      this.socket.once("close", done);
    });
    return !this.isClosed;
  }

  /** Reads the greeting, then EHLO, MAIL FROM and RCPT TO; throws unless each is answered as it should be. */
  async startTransaction(from: string, to: readonly string[]): Promise<void> {
    expectReply(await this.line(0), "220", "greeting");
    expectReply(await this.command("EHLO client.example"), "250", "EHLO");
    expectReply(await this.command(`MAIL FROM:<${from}>`), "250", "MAIL FROM");
    for (const recipient of to) {
      expectReply(await this.command(`RCPT TO:<${recipient}>`), "250", "RCPT TO");
    }
  }

  close(): void {
    this.socket.destroy();
  }

  #seen(): string {
    return JSON.stringify(this.lines.map((line) => (line.length > 200 ? `${line.slice(0, 200)}...` : line)));
  }
}

function expectReply(line: string, code: string, step: string): void {
  if (!line.startsWith(`${code} `) && !line.startsWith(`${code}-`)) {
    throw new Error(`${step} was answered '${line}', not ${code}`);
  }
}
