/** Why a message was refused, as its log line names it. */
export type MessageRefusalReason =
  | "message_too_big"
  | "header_section_too_big"
  | "header_line_too_long"
  | "mime_limits"
  /** Every recipient inbox's receive lists refuse the sender. */
  | "sender_refused";

/**
 * A message refused for what it is (too big, a header past its bound, too many parts), not for a failure here: the
 * sender is answered with this permanent SMTP reply and must not try again.
 */
export class RefusedMessageError extends Error {
  override name = "RefusedMessageError";
  /** The SMTP reply code; the message starts with the enhanced status code (RFC 3463). */
  readonly responseCode: 552 | 554;
  readonly reason: MessageRefusalReason;

  constructor(responseCode: 552 | 554, message: string, reason: MessageRefusalReason) {
    super(message);
    this.responseCode = responseCode;
    this.reason = reason;
  }
}
