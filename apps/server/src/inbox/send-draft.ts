import type { SendMessageRequest } from "@pigeonhole/inbox-types";
import { canonicalJson } from "../canonical-json.ts";
import { isoTimestamp } from "../clock.ts";
import { newUuid, randomBase62, sha256Hex } from "../ids.ts";
import { formatSender, normalizeAddress } from "../mail/mail-address.ts";
import { toAddressList } from "./addresses.ts";
import { InboxProblem } from "./inbox-errors.ts";
import { buildMessageSource } from "./message-source.ts";
import type { UnthreadedCopy } from "./thread-joining.ts";
import { messageIdsIn, replyTargetsOf } from "./thread-joining.ts";

export const MAX_RECIPIENTS = 50;
/** Decoded attachments of one message, in all. */
export const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024;
const PREVIEW_LENGTH = 200;

export interface SendRequest {
  podId: string;
  inboxId: string;
  /** The sending inbox's display name, for `From`. */
  displayName: string | null;
  body: SendMessageRequest;
  idempotencyKey: string | undefined;
  /** What an `Idempotency-Key` compares; the inbox and the body unless given (a reply names its message too). */
  fingerprint?: unknown;
}

/** An attachment of a send: its metadata plus the decoded content. */
export interface DecodedAttachment {
  attachment_id: string;
  filename: string;
  content_type: string;
  size: number;
  content: Uint8Array;
}

/** The fields of the message record that every copy of a send shares. */
export type SharedFields = Omit<UnthreadedCopy, "inbox_id" | "labels" | "bcc">;

/**
 * A send as it is prepared before its transaction: checked, its attachments decoded and its source built, so that
 * the transaction holds the database no longer than its reads and writes take.
 */
export interface SendDraft {
  messageId: string;
  nowMs: number;
  now: string;
  to: string[];
  cc: string[];
  bcc: string[];
  /** Every recipient over to, cc and bcc, compared without case, once each. */
  recipients: string[];
  /** The message ids a copy is threaded by (see `replyTargetsOf`). */
  replyTargets: string[];
  /** The hash an `Idempotency-Key` compares; empty without a key. */
  requestHash: string;
  attachments: DecodedAttachment[];
  fields: SharedFields;
  /** The RFC 5322 source of the sender's copy (`Bcc` included). */
  source: Uint8Array;
}

/** Checks a send, decodes its attachments and builds its source: everything that needs no database. */
export async function draftSend(request: SendRequest, nowMs: number): Promise<SendDraft> {
  const { body } = request;
  const to = toAddressList(body.to);
  const cc = toAddressList(body.cc);
  const bcc = toAddressList(body.bcc);
  checkRecipientCount(to, cc, bcc);
  const attachments = decodeAttachments(body);
  const headers = body.headers ?? {};
  const inReplyTo = headerValue(headers, "In-Reply-To")?.trim() || null;
  const references = messageIdsIn(headerValue(headers, "References"));
  const now = isoTimestamp(nowMs);
  const messageId = `<${newUuid()}@${request.inboxId.split("@")[1]}>`;
  const fields: SharedFields = {
    message_id: messageId,
    timestamp: now,
    from: formatSender(request.inboxId, request.displayName),
    to,
    cc,
    reply_to: toAddressList(body.reply_to),
    subject: body.subject ?? null,
    preview: body.text === undefined ? null : body.text.slice(0, PREVIEW_LENGTH),
    text: body.text ?? null,
    html: body.html ?? null,
    in_reply_to: inReplyTo,
    references,
    headers,
    size: messageSize(body, headers, attachments),
    created_at: now,
    updated_at: now,
  };
  return {
    messageId,
    nowMs,
    now,
    to,
    cc,
    bcc,
    recipients: [...new Set([...to, ...cc, ...bcc].map(normalizeAddress))],
    replyTargets: replyTargetsOf(inReplyTo, references),
    // Only a send with an Idempotency-Key is compared with an earlier one.
    requestHash:
      request.idempotencyKey === undefined
        ? ""
        : sha256Hex(canonicalJson(request.fingerprint ?? { inbox_id: request.inboxId, body })),
    attachments,
    fields,
    source: await buildMessageSource({ ...fields, bcc, attachments }),
  };
}

function checkRecipientCount(to: readonly string[], cc: readonly string[], bcc: readonly string[]): void {
  const recipientCount = to.length + cc.length + bcc.length;
  if (recipientCount > MAX_RECIPIENTS) {
    throw new InboxProblem(
      400,
      "TOO_MANY_RECIPIENTS",
      `The message has ${recipientCount} recipients over to, cc and bcc; at most ${MAX_RECIPIENTS} are allowed.`,
      { field: bcc.length > 0 ? "bcc" : cc.length > 0 ? "cc" : "to" },
    );
  }
}

function decodeAttachments(body: SendMessageRequest): DecodedAttachment[] {
  let total = 0;
  return (body.attachments ?? []).map((attachment) => {
    const content = Buffer.from(attachment.content, "base64");
    total += content.length;
    if (total > MAX_ATTACHMENT_BYTES) {
      throw new InboxProblem(413, "PAYLOAD_TOO_LARGE", "The decoded attachments are larger than 10 MiB in all.", {
        field: "attachments",
      });
    }
    return {
      attachment_id: `att_${randomBase62(16)}`,
      filename: attachment.filename,
      content_type: attachment.content_type ?? "application/octet-stream",
      size: content.length,
      content,
    };
  });
}

/** The record's `size`: the bytes of the subject, the bodies, the extra headers and the decoded attachments. */
const messageSize = (
  body: SendMessageRequest,
  headers: Record<string, string>,
  attachments: readonly DecodedAttachment[],
): number =>
  Buffer.byteLength(body.subject ?? "") +
  Buffer.byteLength(body.text ?? "") +
  Buffer.byteLength(body.html ?? "") +
  Object.entries(headers).reduce((sum, [name, value]) => sum + Buffer.byteLength(`${name}: ${value}\r\n`), 0) +
  attachments.reduce((sum, attachment) => sum + attachment.size, 0);

/** Header lookup without regard to case, as mail headers are compared. */
function headerValue(headers: Record<string, string>, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === wanted) {
      return value;
    }
  }
  return undefined;
}
