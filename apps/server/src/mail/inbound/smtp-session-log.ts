import type { SMTPServerSession } from "smtp-server";
import type { LogFields, ServerLogger } from "../../logger.ts";
import type { SmtpMeter } from "../../metrics/instruments.ts";
import { NO_INSTRUMENTS } from "../../metrics/instruments.ts";
import type { MessageRefusalReason } from "./refused-message-error.ts";

/** Why a connection was refused before its greeting. */
export type ConnectionRefusalReason = "connections_per_address" | "connections_in_all";

/** Why a recipient was refused at RCPT TO. */
export type RecipientRefusalReason = "unknown_recipient" | "domain_not_hosted" | "recipient_check_failed";

/**
 * Refusals of one session written one line each; past these, the session's closing line counts the rest. A sender
 * may name recipients without end on one connection, and each costs it a few bytes: the lines it causes stay bounded.
 */
export const REFUSAL_LINES_PER_SESSION = 5;

/** What a session has done so far, for its closing line. */
interface SessionTally {
  readonly openedMs: number;
  messagesAccepted: number;
  messagesRefused: number;
  recipientsRefused: number;
  refusalLinesLeft: number;
  refusalsNotLogged: number;
}

/**
 * The last error reply the session was sent, ours or one smtp-server sends on its own without asking us (a sender
 * address it cannot read, a command out of sequence, a timeout): smtp-server keeps it on the session.
 */
const lastErrorOf = (session: SMTPServerSession): string | undefined => {
  const error = "error" in session ? session.error : undefined;
  return typeof error === "string" ? error : undefined;
};

/** What every line about a session names: it, and the client's address. */
const sessionFields = (session: SMTPServerSession): LogFields => ({
  session_id: session.id,
  client_address: session.remoteAddress,
});

/**
 * The log lines of the SMTP listener: a session's opening (with the client's address) and its close (with what it
 * did), each message accepted or refused, each recipient refused, each connection refused, with the reason. Never a
 * message's content. A connection costs at most two lines plus those of its messages, however it behaves. Each is
 * counted too (every refusal, past the lines' bound as well), by its fixed reason.
 */
export class SmtpSessionLog {
  readonly #logger: ServerLogger;
  readonly #meter: SmtpMeter;
  readonly #sessions = new Map<string, SessionTally>();

  constructor(logger: ServerLogger, meter: SmtpMeter = NO_INSTRUMENTS.smtp) {
    this.#logger = logger;
    this.#meter = meter;
  }

  /** A connection refused before its greeting (421): its only line. */
  connectionRefused(clientAddress: string, reason: ConnectionRefusalReason): void {
    this.#meter.connectionRefused(reason);
    this.#logger.info("smtp connection refused", { client_address: clientAddress, reason });
  }

  opened(session: SMTPServerSession): void {
    this.#sessions.set(session.id, {
      openedMs: performance.now(),
      messagesAccepted: 0,
      messagesRefused: 0,
      recipientsRefused: 0,
      refusalLinesLeft: REFUSAL_LINES_PER_SESSION,
      refusalsNotLogged: 0,
    });
    this.#meter.sessionOpened();
    this.#logger.info("smtp session opened", sessionFields(session));
  }

  /** A recipient refused: not one here, or (`recipient_check_failed`, 451) not looked up for a failure here. */
  recipientRefused(
    session: SMTPServerSession,
    refused: { recipient: string; reason: RecipientRefusalReason; reply: string; error?: string },
  ): void {
    this.#meter.recipientRefused(refused.reason);
    const tally = this.#sessions.get(session.id);
    if (tally) {
      tally.recipientsRefused++;
      const level = refused.reason === "recipient_check_failed" ? "warn" : "info";
      this.#refusal(tally, session, level, "smtp recipient refused", refused);
    }
  }

  messageAccepted(session: SMTPServerSession, fields: { messageId: string; sizeBytes: number }): void {
    this.#meter.messageAccepted();
    const tally = this.#sessions.get(session.id);
    if (tally) {
      tally.messagesAccepted++;
    }
    this.#logger.info("smtp message accepted", {
      ...sessionFields(session),
      message_id: fields.messageId,
      from: session.envelope.mailFrom ? session.envelope.mailFrom.address : null,
      recipients: session.envelope.rcptTo.length,
      size_bytes: fields.sizeBytes,
    });
  }

  /** A message refused for what it is (answered 5xx), with what reading it cost. */
  messageRefused(
    session: SMTPServerSession,
    refused: { reason: MessageRefusalReason; reply: string; receivedBytes: number; keptBytes: number },
  ): void {
    this.#meter.messageRefused(refused.reason);
    const tally = this.#sessions.get(session.id);
    if (tally) {
      tally.messagesRefused++;
      this.#refusal(tally, session, "info", "smtp message refused", {
        reason: refused.reason,
        reply: refused.reply,
        received_bytes: refused.receivedBytes,
        kept_bytes: refused.keptBytes,
      });
    }
  }

  /** A message that could not be stored for a failure here: answered 451, so that its sender tries again. */
  messageNotStored(session: SMTPServerSession, error: string): void {
    this.#meter.messageRefused("not_stored");
    const tally = this.#sessions.get(session.id);
    if (tally) {
      tally.messagesRefused++;
      this.#refusal(tally, session, "error", "smtp message not stored", { reason: "not_stored", error });
    }
  }

  closed(session: SMTPServerSession): void {
    const tally = this.#sessions.get(session.id);
    if (!tally) {
      return;
    }
    this.#sessions.delete(session.id);
    this.#meter.sessionClosed();
    this.#logger.info("smtp session closed", {
      ...sessionFields(session),
      duration_ms: Math.round(performance.now() - tally.openedMs),
      messages_accepted: tally.messagesAccepted,
      messages_refused: tally.messagesRefused,
      recipients_refused: tally.recipientsRefused,
      ...(tally.refusalsNotLogged > 0 ? { refusals_not_logged: tally.refusalsNotLogged } : {}),
      last_error: lastErrorOf(session),
    });
  }

  #refusal(
    tally: SessionTally,
    session: SMTPServerSession,
    level: "info" | "warn" | "error",
    message: string,
    fields: LogFields,
  ): void {
    if (tally.refusalLinesLeft === 0) {
      tally.refusalsNotLogged++;
      return;
    }
    tally.refusalLinesLeft--;
    this.#logger[level](message, { ...sessionFields(session), ...fields });
  }
}
