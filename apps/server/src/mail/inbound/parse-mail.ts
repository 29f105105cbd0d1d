import type { AddressObject, HeaderLines, ParsedMail } from "mailparser";
import { simpleParser } from "mailparser";
import { formatSender } from "../mail-address.ts";
import { MAX_HEADER_SECTION_BYTES } from "./header-limits.ts";
import { RefusedMessageError } from "./refused-message-error.ts";

/** What a message received over SMTP contributes to the records of its copies. */
export interface ParsedMessage {
  /** The `Message-ID`, or null when the mail has none. */
  messageId: string | null;
  date: Date | null;
  from: string;
  /** The addresses of `From`, as mailparser parsed them (a header may name several mailboxes). */
  fromAddresses: string[];
  to: string[];
  cc: string[];
  replyTo: string[];
  subject: string | null;
  text: string | null;
  html: string | null;
  inReplyTo: string | null;
  references: string[];
  /** Every header, by its name as written, unfolded; a repeated header keeps its last value. */
  headers: Record<string, string>;
  /** Attachments and inline parts (images of the html), decoded. */
  attachments: { filename: string; contentType: string; content: Buffer }[];
}

const addressesOf = (value: AddressObject | AddressObject[] | undefined): string[] =>
  (Array.isArray(value) ? value : value ? [value] : [])
    .flatMap((object) => object.value)
    .flatMap((entry) => [entry.address, ...(entry.group ?? []).map((member) => member.address)])
    .filter((address): address is string => typeof address === "string" && address.length > 0);

function headersOf(lines: HeaderLines): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const { line } of lines) {
    const colon = line.indexOf(":");
    const name = line.slice(0, colon).trim();
    if (colon > 0) {
      headers[name] = line
        .slice(colon + 1)
        .replace(/\r?\n[ \t]+/g, " ")
        .trim();
    }
  }
  return headers;
}

/** `Name <address>` (or the bare address) as the records of sent messages write it. */
function senderOf(from: AddressObject | undefined): string {
  const first = from?.value[0];
  if (!first?.address) {
    return from?.text ?? "";
  }
  return formatSender(first.address, first.name || null);
}

const referencesOf = (value: ParsedMail["references"]): string[] =>
  (Array.isArray(value) ? value : value ? [value] : []).flatMap((entry) => entry.split(/\s+/)).filter(Boolean);

/** mailsplit's code for a MIME part's header block over `maxHeadSize`, or too many parts. */
const OVER_LIMIT = "EMAXLEN";

/**
 * Parses an RFC 5322 message with mailparser: headers (encoded words and charsets decoded), the text and html bodies
 * (any transfer encoding and charset), attachments and inline parts. The header block of every MIME part is held to
 * the bound of the message's own, and the parts are counted: past either, a {@link RefusedMessageError}.
 */
export async function parseMail(raw: Buffer): Promise<ParsedMessage> {
  const parsed = await simpleParser(raw, {
    skipImageLinks: true,
    skipTextToHtml: true,
    skipHtmlToText: true,
    maxHeadSize: MAX_HEADER_SECTION_BYTES,
  }).catch((error: unknown) => {
    if (error instanceof Error && (error as { code?: unknown }).code === OVER_LIMIT) {
      throw new RefusedMessageError(552, `5.3.4 Message refused: ${error.message}`, "mime_limits");
    }
    throw error;
  });
  const date = parsed.date && !Number.isNaN(parsed.date.getTime()) ? parsed.date : null;
  return {
    messageId: parsed.messageId?.trim() || null,
    date,
    from: senderOf(parsed.from),
    fromAddresses: addressesOf(parsed.from),
    to: addressesOf(parsed.to),
    cc: addressesOf(parsed.cc),
    replyTo: addressesOf(parsed.replyTo),
    subject: parsed.subject ?? null,
    text: parsed.text ?? null,
    html: typeof parsed.html === "string" ? parsed.html : null,
    inReplyTo: parsed.inReplyTo?.trim() || null,
    references: referencesOf(parsed.references),
    headers: headersOf(parsed.headerLines),
    attachments: parsed.attachments.map((attachment, index) => ({
      filename: attachment.filename ?? `attachment-${index + 1}`,
      contentType: attachment.contentType || "application/octet-stream",
      content: attachment.content,
    })),
  };
}
