import nodemailer from "nodemailer";

/** A DKIM key the relayed mail is signed with. */
export interface DkimKey {
  domain: string;
  selector: string;
  /** The private key, PEM. */
  privateKey: string;
}

export interface RelayTransportOptions {
  /** `smtp://[user:pass@]host[:port]` (STARTTLS when the relay offers it) or `smtps://...` (TLS from the start). */
  url: string;
  /** Accept a relay certificate that does not verify (self-signed). */
  insecure: boolean;
  dkim: DkimKey | null;
  /** The name the server gives itself in `EHLO`/`HELO` (see helo-name.ts). */
  heloName: string;
  /** Connections to the relay at most. */
  maxConnections: number;
  /** How long the relay has to connect, greet, and answer each command. */
  timeoutMs: number;
}

/** What the relay said about one recipient of one message. */
export type RelayOutcome =
  | { kind: "accepted"; reply: string }
  /** A 4xx reply or no reply at all (no connection, a timeout): worth trying again. */
  | { kind: "temporary"; reply: string }
  /** A 5xx reply to the sender, the recipient or the message. */
  | { kind: "permanent"; reply: string };

export interface RelayTransport {
  /** Relays `source` to `recipient` alone, with `sender` as the envelope sender. */
  relay(sender: string, recipient: string, source: Uint8Array): Promise<RelayOutcome>;
  close(): void;
}

/** A relay URL with its password hidden, for logs. */
export function describeRelay(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) {
    parsed.password = "***";
  }
  return parsed.toString();
}

/** Checks a relay URL as `--smtp-relay` takes it; answers what is wrong, or null. */
export function relayUrlProblem(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `'${url}' is not a URL such as smtp://user:password@relay.example.com:587.`;
  }
  if (parsed.protocol !== "smtp:" && parsed.protocol !== "smtps:") {
    return `the relay URL must start with smtp:// or smtps://, not ${parsed.protocol}//.`;
  }
  if (parsed.hostname === "") {
    return "the relay URL must name a host.";
  }
  return null;
}

/** The fields Nodemailer sets on an SMTP failure. */
interface SmtpError extends Error {
  code?: string;
  response?: string;
  responseCode?: number;
}

const isSmtpError = (error: unknown): error is SmtpError => error instanceof Error;

/** The reply the relay gave about the recipient, or what went wrong when it gave none. */
function outcomeOf(error: unknown): RelayOutcome {
  if (!isSmtpError(error)) {
    return { kind: "temporary", reply: String(error) };
  }
  const code = error.responseCode;
  const reply = error.response?.trim() || error.message;
  // Only the relay's verdict on this message is final: a refused login or TLS set-up is the server's configuration,
  // which may be fixed before the retries run out.
  const aboutTheMessage = error.code === "EENVELOPE" || error.code === "EMESSAGE";
  if (code !== undefined && code >= 500 && code <= 599 && aboutTheMessage) {
    return { kind: "permanent", reply };
  }
  return { kind: "temporary", reply };
}

/**
 * Nodemailer's pooled SMTP transport to the relay. Every message goes to one recipient, as stored: the source is
 * sent as it is (MIME was built by the send), signed with DKIM when a key is given.
 */
export function createRelayTransport(options: RelayTransportOptions): RelayTransport {
  const url = new URL(options.url);
  const secure = url.protocol === "smtps:";
  const transport = nodemailer.createTransport({
    pool: true,
    host: url.hostname.replace(/^\[|\]$/g, ""),
    port: url.port === "" ? (secure ? 465 : 587) : Number(url.port),
    secure,
    // Left out, Nodemailer greets with the machine's name only when it has a dot, else with `[127.0.0.1]`.
    name: options.heloName,
    auth: url.username ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } : undefined,
    tls: { rejectUnauthorized: !options.insecure },
    maxConnections: options.maxConnections,
    // The queue retries by itself, with its backoff; the pool would resend a message whose answer was lost at once.
    maxRequeues: 0,
    // A relay reads its recipient policy per connection: an idle connection is closed soon, so that a retry after a
    // temporary refusal asks afresh. A busy pool keeps its connections.
    idleTimeout: 1_000,
    connectionTimeout: options.timeoutMs,
    greetingTimeout: options.timeoutMs,
    socketTimeout: options.timeoutMs,
    dkim: options.dkim
      ? { domainName: options.dkim.domain, keySelector: options.dkim.selector, privateKey: options.dkim.privateKey }
      : undefined,
  });
  return {
    async relay(sender, recipient, source) {
      try {
        const info = await transport.sendMail({
          envelope: { from: sender, to: [recipient] },
          raw: Buffer.from(source.buffer, source.byteOffset, source.byteLength),
        });
        return { kind: "accepted", reply: info.response };
      } catch (error) {
        return outcomeOf(error);
      }
    },
    close() {
      transport.close();
    },
  };
}
