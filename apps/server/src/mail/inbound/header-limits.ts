import { RefusedMessageError } from "./refused-message-error.ts";

/**
 * The bounds a received message's header section must keep, checked on its bytes as they arrive over SMTP, before
 * anything parses them. 64 KiB holds the headers of any genuine message (trace and signature headers included)
 * many times over; RFC 5322 (section 2.1.1) limits every line to 998 characters, not counting its CRLF.
 */
export const MAX_HEADER_SECTION_BYTES = 64 * 1024;
export const MAX_HEADER_LINE_LENGTH = 998;

export type HeaderLimitExceeded = "section" | "line";

/** The refusal of a message whose header section broke a bound. */
export function headerRefusal(exceeded: HeaderLimitExceeded): RefusedMessageError {
  return exceeded === "section"
    ? new RefusedMessageError(
        552,
        `5.3.4 Message header too big: at most ${MAX_HEADER_SECTION_BYTES} bytes`,
        "header_section_too_big",
      )
    : new RefusedMessageError(
        554,
        `5.6.0 Header line too long: at most ${MAX_HEADER_LINE_LENGTH} characters (RFC 5322 section 2.1.1)`,
        "header_line_too_long",
      );
}

const LF = 0x0a;
const CR = 0x0d;

/**
 * Follows the header section of a message through the chunks of its data, one byte at a time and never more than the
 * section's bound, until the empty line that ends it. Constant memory; it looks at nothing after the header section.
 */
export class HeaderSectionWatch {
  #sectionBytes = 0;
  #lineLength = 0;
  #ended = false;
  #exceeded: HeaderLimitExceeded | null = null;

  /** The bound the header section has broken so far, if any. */
  get exceeded(): HeaderLimitExceeded | null {
    return this.#exceeded;
  }

  /** Follows the next chunk of the message's data. */
  inspect(chunk: Uint8Array): void {
    for (let index = 0; index < chunk.length && !this.#ended && this.#exceeded === null; index++) {
      const byte = chunk[index];
      this.#sectionBytes++;
      if (byte === LF) {
        // A line with nothing before its line ending (CRLF, or a bare LF) ends the header section.
        this.#ended = this.#lineLength === 0;
        this.#lineLength = 0;
      } else if (byte !== CR) {
        this.#lineLength++;
      }
      if (this.#lineLength > MAX_HEADER_LINE_LENGTH) {
        this.#exceeded = "line";
      } else if (!this.#ended && this.#sectionBytes > MAX_HEADER_SECTION_BYTES) {
        this.#exceeded = "section";
      }
    }
  }
}
