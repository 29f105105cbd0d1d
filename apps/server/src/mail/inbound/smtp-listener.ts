import type { AddressInfo, Socket } from "node:net";
import type { SMTPServerDataStream, SMTPServerSession } from "smtp-server";
import { SMTPServer } from "smtp-server";
import type { ServerLogger } from "../../logger.ts";
import type { SmtpMeter } from "../../metrics/instruments.ts";
import { normalizeAddress } from "../mail-address.ts";
import { HeaderSectionWatch, headerRefusal } from "./header-limits.ts";
import { RefusedMessageError } from "./refused-message-error.ts";
import { SmtpSessionLog } from "./smtp-session-log.ts";

export interface SmtpListenerOptions {
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** Largest message accepted, in bytes: announced with SIZE, and DATA beyond it is refused with 552. */
  maxSize: number;
  /** Connections one client address may hold at once; more are refused with 421. */
  connectionsPerAddress: number;
  /** Connections the listener holds at once, from all addresses together; more are refused with 421. */
  maxConnections: number;
  /** STARTTLS is offered with this certificate and key (PEM); without them the server speaks plain SMTP only. */
  tls?: { cert: string | Buffer; key: string | Buffer };
  /** The domains mail is accepted for (lowercase). */
  domains: readonly string[];
  /** Whether an address is an inbox hosted here. */
  isHosted(address: string): Promise<boolean>;
  /**
   * Stores a message, resolving with its `Message-ID`; the listener answers 250 once it resolves. A
   * {@link RefusedMessageError} is answered with its reply, any other failure with 451.
   */
  receive(mail: ReceivedMail): Promise<{ messageId: string }>;
  logger: ServerLogger;
  /** Counts sessions, messages and refusals (see smtp-session-log.ts). Default: nothing is counted. */
  meter?: SmtpMeter;
}

/** A message as it arrived: what the listener hands over to be stored. */
export interface ReceivedMail {
  /** The exact bytes received after DATA: kept as the message's source. */
  raw: Buffer;
  /** The envelope recipients (RCPT TO), each an inbox hosted here. */
  recipients: readonly string[];
}

export interface RunningSmtpListener {
  host: string;
  port: number;
  url: string;
  close(): Promise<void>;
}

/** An SMTP reply the library sends for a refused command. */
const reply = (code: number, text: string) => Object.assign(new Error(text), { responseCode: code });

/** What DATA brought: the message, or why it is refused (decided while it arrived), with what it cost to read. */
type ReceivedData = ({ raw: Buffer } | { refusal: RefusedMessageError }) & {
  /** Bytes of data received, to the end of the message. */
  receivedBytes: number;
  /** The most bytes of the message kept at once while it arrived. */
  keptBytes: number;
};

/**
 * Reads a message's data to its end, keeping it only while it stays within `maxSize` and within the header bounds:
 * once either is passed, what was kept is dropped and the rest is read and discarded, so a sender streaming without
 * end costs at most `maxSize` of memory. The data is always read to its end, because the reply follows it.
 */
async function readMessage(stream: SMTPServerDataStream, maxSize: number): Promise<ReceivedData> {
  const chunks: Buffer[] = [];
  const header = new HeaderSectionWatch();
  let refusal: RefusedMessageError | null = null;
  let kept = 0;
  let keptBytes = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    if (refusal) {
      continue;
    }
    header.inspect(chunk);
    // smtp-server counts the bytes as they arrive and raises sizeExceeded on the chunk that crosses the limit.
    refusal = stream.sizeExceeded ? tooBig(maxSize) : header.exceeded ? headerRefusal(header.exceeded) : null;
    if (refusal) {
      chunks.length = 0;
      kept = 0;
    } else {
      chunks.push(chunk);
      kept += chunk.length;
      keptBytes = Math.max(keptBytes, kept);
    }
  }
  refusal ??= stream.sizeExceeded ? tooBig(maxSize) : null;
  const costs = { receivedBytes: stream.byteLength, keptBytes };
  return refusal ? { refusal, ...costs } : { raw: Buffer.concat(chunks), ...costs };
}

const tooBig = (maxSize: number) =>
  new RefusedMessageError(552, `5.3.4 Message too big: at most ${maxSize} bytes`, "message_too_big");

const TOO_MANY_FROM_ADDRESS = "4.7.0 Too many connections from your address, try again later";

/**
 * Logs the connections smtp-server refuses past `maxClients`: it takes a connection up on the turn after it arrives
 * and refuses it there, before any handler of ours runs, with only the socket to name its client. A socket it has
 * already ended by the following turn is one it refused.
 */
function logConnectionsRefusedInAll(server: SMTPServer, log: SmtpSessionLog): void {
  server.server.on("connection", (socket: Socket) =>
    setImmediate(() => {
      if (socket.writableEnded) {
        // As smtp-server names the clients it serves: IPv4 ones without the IPv6 prefix of a dual-stack socket.
        const address = (socket.remoteAddress ?? "unknown").replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, "");
        log.connectionRefused(address, "connections_in_all");
      }
    }),
  );
}

/**
 * Receives mail for the inboxes hosted here over SMTP (Nodemailer's `smtp-server`). A recipient that is not a hosted
 * inbox of a configured domain is refused at RCPT TO (550 5.1.1); a message over the size limit at MAIL FROM or DATA
 * (552 5.3.4, without keeping more than the limit); a header section past its bounds at DATA (552 5.3.4 or 554 5.6.0,
 * before anything parses it). A message is answered 250 only once it is committed; any failure to store it is a 451,
 * so the sender keeps it and tries again. Connections past the per-address or the global cap are answered 421. Each
 * session, message and refusal is logged, within bounds (see smtp-session-log.ts).
 */
export async function startSmtpListener(options: SmtpListenerOptions): Promise<RunningSmtpListener> {
  const domains = new Set(options.domains.map((domain) => domain.toLowerCase()));
  const connections = new Map<string, number>();
  // The sessions counted in `connections`: one refused by the global cap closes without ever being counted.
  const counted = new Set<string>();
  const log = new SmtpSessionLog(options.logger, options.meter);
  const server = new SMTPServer({
    name: "pigeonhole",
    banner: "Pigeonhole",
    size: options.maxSize,
    // Counted before the greeting: the connection past the cap is answered 421 and closed.
    maxClients: options.maxConnections,
    authOptional: true,
    disabledCommands: options.tls ? ["AUTH"] : ["AUTH", "STARTTLS"],
    ...(options.tls ? { cert: options.tls.cert, key: options.tls.key } : {}),
    logger: false,
    onConnect(session: SMTPServerSession, callback) {
      const count = (connections.get(session.remoteAddress) ?? 0) + 1;
      connections.set(session.remoteAddress, count);
      counted.add(session.id);
      if (count > options.connectionsPerAddress) {
        log.connectionRefused(session.remoteAddress, "connections_per_address");
        callback(reply(421, TOO_MANY_FROM_ADDRESS));
        return;
      }
      log.opened(session);
      callback();
    },
    onClose(session: SMTPServerSession) {
      log.closed(session);
      if (!counted.delete(session.id)) {
        return;
      }
      const count = (connections.get(session.remoteAddress) ?? 1) - 1;
      if (count <= 0) {
        connections.delete(session.remoteAddress);
      } else {
        connections.set(session.remoteAddress, count);
      }
    },
    onRcptTo(address, session, callback) {
      const recipient = normalizeAddress(address.address);
      const domain = recipient.slice(recipient.lastIndexOf("@") + 1);
      const hostedDomain = domains.has(domain);
      const check = hostedDomain ? options.isHosted(recipient) : Promise.resolve(false);
      check.then(
        (hosted) => {
          if (hosted) {
            callback();
            return;
          }
          const text = `5.1.1 <${recipient}>: Recipient address rejected: no such inbox`;
          const reason = hostedDomain ? "unknown_recipient" : "domain_not_hosted";
          log.recipientRefused(session, { recipient, reason, reply: `550 ${text}` });
          callback(reply(550, text));
        },
        (error: unknown) => {
          const text = "4.3.0 Temporary failure, try again later";
          log.recipientRefused(session, {
            recipient,
            reason: "recipient_check_failed",
            reply: `451 ${text}`,
            error: String(error),
          });
          callback(reply(451, text));
        },
      );
    },
    onData(stream, session, callback) {
      const refuse = (refusal: RefusedMessageError, data: ReceivedData) => {
        log.messageRefused(session, {
          reason: refusal.reason,
          reply: `${refusal.responseCode} ${refusal.message}`,
          receivedBytes: data.receivedBytes,
          keptBytes: data.keptBytes,
        });
        callback(reply(refusal.responseCode, refusal.message));
      };
      readMessage(stream, options.maxSize).then(
        async (data) => {
          if ("refusal" in data) {
            refuse(data.refusal, data);
            return;
          }
          try {
            const recipients = session.envelope.rcptTo.map((recipient) => recipient.address);
            const { messageId } = await options.receive({ raw: data.raw, recipients });
            log.messageAccepted(session, { messageId, sizeBytes: data.raw.length });
            callback(null, "2.0.0 Ok: stored");
          } catch (error) {
            if (error instanceof RefusedMessageError) {
              refuse(error, data);
              return;
            }
            log.messageNotStored(session, String(error));
            callback(reply(451, "4.3.0 The message could not be stored, try again later"));
          }
        },
        (error: unknown) => callback(reply(451, `4.3.0 ${String(error)}`)),
      );
    },
  });
  // smtp-server names the client of a connection's error on the error itself.
  server.on("error", (error) => {
    const clientAddress = (error as { remoteAddress?: string }).remoteAddress;
    options.logger.warn("smtp connection error", { error: error.message, client_address: clientAddress });
  });
  logConnectionsRefusedInAll(server, log);
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
