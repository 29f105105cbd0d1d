import { createHash } from "node:crypto";
import MailComposer from "nodemailer/lib/mail-composer";
import { mimeNodeBytes } from "../mail/mime-node-bytes.ts";
import { FIELD_HEADERS } from "./field-headers.ts";

/** What a message's RFC 5322 source is built from: the fields of the message record, with the attachments' bytes. */
export interface SourceFields {
  message_id: string;
  timestamp: string;
  from: string;
  to: readonly string[];
  cc: readonly string[];
  bcc: readonly string[];
  reply_to: readonly string[];
  subject: string | null;
  text: string | null;
  html: string | null;
  in_reply_to: string | null;
  references: readonly string[];
  headers: Readonly<Record<string, string>>;
  attachments: readonly { filename: string; content_type: string; content: Uint8Array }[];
}

/** An RFC 5322 field name: printable ASCII but the colon. */
const FIELD_NAME = /^[!-9;-~]+$/;

/**
 * The RFC 5322 source of a message, built by Nodemailer's MailComposer with CRLF line ends. Its MIME boundaries
 * derive from the message id, so the same fields always make the same bytes. `Bcc` is written when the message has
 * it (the sender's copy); `withoutBcc` (../without-bcc.ts) makes the copy a recipient sees.
 */
export async function buildMessageSource(fields: SourceFields): Promise<Uint8Array> {
  const extraHeaders = Object.entries(fields.headers).filter(
    ([name]) => FIELD_NAME.test(name) && !FIELD_HEADERS.has(name.toLowerCase()),
  );
  const composer = new MailComposer({
    from: fields.from,
    to: [...fields.to],
    cc: [...fields.cc],
    bcc: [...fields.bcc],
    replyTo: [...fields.reply_to],
    subject: fields.subject ?? undefined,
    text: fields.text ?? undefined,
    html: fields.html ?? undefined,
    messageId: fields.message_id,
    date: new Date(fields.timestamp),
    inReplyTo: fields.in_reply_to ?? undefined,
    references: fields.references.length > 0 ? [...fields.references] : undefined,
    headers: extraHeaders.map(([key, value]) => ({ key, value })),
    attachments: fields.attachments.map((attachment) => ({
      filename: attachment.filename,
      contentType: attachment.content_type,
      content: Buffer.from(attachment.content.buffer, attachment.content.byteOffset, attachment.content.byteLength),
    })),
    baseBoundary: createHash("sha256").update(fields.message_id).digest("hex").slice(0, 16),
  });
  const node = composer.compile();
  node.keepBcc = true;
  return new Uint8Array(await mimeNodeBytes(node));
}
