/**
 * A message refused for what it is (too big, a header past its bound, too many parts), not for a failure here: the
 * sender is answered with this permanent SMTP reply and must not try again.
 */
export class RefusedMessageError extends Error {
  override name = "RefusedMessageError";
  /** The SMTP reply code; the message starts with the enhanced status code (RFC 3463). */
  readonly responseCode: 552 | 554;

  constructor(responseCode: 552 | 554, message: string) {
    super(message);
    this.responseCode = responseCode;
  }
}
