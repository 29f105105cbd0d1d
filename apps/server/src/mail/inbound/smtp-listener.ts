import type { AddressInfo } from "node:net";
import type { SMTPServerDataStream, SMTPServerSession } from "smtp-server";
import { SMTPServer } from "smtp-server";
import { normalizeAddress } from "../../inbox/addresses.ts";
import type { ServerLogger } from "../../logger.ts";
import type { ReceiveContext } from "./receive-message.ts";
import { receiveMessage } from "./receive-message.ts";

export interface SmtpListenerOptions {
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** Largest message accepted, in bytes: announced with SIZE, and DATA beyond it is refused with 552. */
  maxSize: number;
  /** Connections one client address may hold at once; more are refused with 421. */
  connectionsPerAddress: number;
  /** STARTTLS is offered with this certificate and key (PEM); without them the server speaks plain SMTP only. */
  tls?: { cert: string | Buffer; key: string | Buffer };
  /** The domains mail is accepted for (lowercase). */
  domains: readonly string[];
  /** Whether an address is an inbox hosted here. */
  isHosted(address: string): Promise<boolean>;
  receive: ReceiveContext;
  logger: ServerLogger;
}

export interface RunningSmtpListener {
  host: string;
  port: number;
  url: string;
  close(): Promise<void>;
}

/** An SMTP reply the library sends for a refused command. */
const reply = (code: number, text: string) => Object.assign(new Error(text), { responseCode: code });

async function readAll(stream: SMTPServerDataStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) {
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/**
 * Receives mail for the inboxes hosted here over SMTP (Nodemailer's `smtp-server`). A recipient that is not a hosted
 * inbox of a configured domain is refused at RCPT TO (550 5.1.1); a message over the size limit at MAIL FROM or DATA
 * (552). A message is answered 250 only once it is committed; any failure to store it is a 451, so the sender keeps
 * it and tries again.
 */
export async function startSmtpListener(options: SmtpListenerOptions): Promise<RunningSmtpListener> {
  const domains = new Set(options.domains.map((domain) => domain.toLowerCase()));
  const connections = new Map<string, number>();
  const server = new SMTPServer({
    name: "pigeonhole",
    banner: "Pigeonhole",
    size: options.maxSize,
    authOptional: true,
    disabledCommands: options.tls ? ["AUTH"] : ["AUTH", "STARTTLS"],
    ...(options.tls ? { cert: options.tls.cert, key: options.tls.key } : {}),
    logger: false,
    onConnect(session: SMTPServerSession, callback) {
      const count = (connections.get(session.remoteAddress) ?? 0) + 1;
      connections.set(session.remoteAddress, count);
      if (count > options.connectionsPerAddress) {
        callback(reply(421, "4.7.0 Too many connections from your address, try again later"));
        return;
      }
      callback();
    },
    onClose(session: SMTPServerSession) {
      const count = (connections.get(session.remoteAddress) ?? 1) - 1;
      if (count <= 0) {
        connections.delete(session.remoteAddress);
      } else {
        connections.set(session.remoteAddress, count);
      }
    },
    onRcptTo(address, _session, callback) {
      const recipient = normalizeAddress(address.address);
      const domain = recipient.slice(recipient.lastIndexOf("@") + 1);
      const check = domains.has(domain) ? options.isHosted(recipient) : Promise.resolve(false);
      check.then(
        (hosted) =>
          callback(hosted ? undefined : reply(550, `5.1.1 <${recipient}>: Recipient address rejected: no such inbox`)),
        (error: unknown) => {
          options.logger.warn("smtp recipient check failed", { error: String(error) });
          callback(reply(451, "4.3.0 Temporary failure, try again later"));
        },
      );
    },
    onData(stream, session, callback) {
      readAll(stream).then(
        async (raw) => {
          if (stream.sizeExceeded) {
            callback(reply(552, `5.3.4 Message too big: at most ${options.maxSize} bytes`));
            return;
          }
          try {
            const recipients = session.envelope.rcptTo.map((recipient) => recipient.address);
            await receiveMessage(options.receive, { raw, recipients });
            callback(null, "2.0.0 Ok: stored");
          } catch (error) {
            options.logger.error("smtp message not stored", { error: String(error) });
            callback(reply(451, "4.3.0 The message could not be stored, try again later"));
          }
        },
        (error: unknown) => callback(reply(451, `4.3.0 ${String(error)}`)),
      );
    },
  });
  server.on("error", (error) => options.logger.warn("smtp connection error", { error: error.message }));
  await new Promise<void>((resolve, reject) => {
    server.server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.server.address() as AddressInfo;
  const hostForUrl = options.host.includes(":") ? `[${options.host}]` : options.host;
  return {
    host: options.host,
    port,
    url: `smtp://${hostForUrl}:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
