import type { ForwardMessageRequest, Message, SendMessageRequest } from "@pigeonhole/inbox-types";
import { InboxProblem } from "./inbox-errors.ts";

/** Attachments one message may carry (the send's own limit), the forwarded ones counted with the new ones. */
const MAX_ATTACHMENTS = 20;

const FORWARD_PREFIX = /^\s*fwd?\s*:/i;

/** The subject of a forward: the message's, with `Fwd: ` before it once. */
export function forwardSubject(subject: string | null): string {
  const original = subject ?? "";
  return FORWARD_PREFIX.test(original) ? original : `Fwd: ${original}`.trimEnd();
}

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character] ?? "");

/** The lines that introduce the forwarded message, as mail programs write them. */
function forwardedHeaderLines(message: Message): string[] {
  return [
    "---------- Forwarded message ---------",
    `From: ${message.from}`,
    `Date: ${message.timestamp}`,
    `Subject: ${message.subject ?? ""}`,
    `To: ${message.to.join(", ")}`,
    ...(message.cc.length > 0 ? [`Cc: ${message.cc.join(", ")}`] : []),
  ];
}

function forwardText(message: Message, note: string | undefined): string {
  const quoted = [...forwardedHeaderLines(message), "", message.text ?? ""].join("\n");
  return note === undefined || note === "" ? quoted : `${note}\n\n${quoted}`;
}

function forwardHtml(message: Message, note: { text?: string; html?: string }): string {
  const noteHtml = note.html ?? (note.text ? `<p>${escapeHtml(note.text).replaceAll("\n", "<br>")}</p>` : "");
  const header = forwardedHeaderLines(message).map(escapeHtml).join("<br>");
  const body = message.html ?? `<pre>${escapeHtml(message.text ?? "")}</pre>`;
  return `${noteHtml}<div>${header}</div><blockquote>${body}</blockquote>`;
}

/** An attachment of the forwarded message with its bytes, to be sent again. */
export interface CarriedAttachment {
  filename: string;
  content_type: string;
  content: Uint8Array;
}

/**
 * The Send Message body of a forward: the caller's recipients and note, the `Fwd:` subject, the original quoted below
 * the note in text and HTML, and the original's attachments after the caller's own. No threading headers: a forward
 * starts a conversation of its own.
 */
export function forwardSendBody(
  message: Message,
  request: ForwardMessageRequest,
  carried: readonly CarriedAttachment[],
): SendMessageRequest {
  const attachments = [
    ...(request.attachments ?? []),
    ...carried.map((attachment) => ({
      filename: attachment.filename,
      content_type: attachment.content_type,
      content: Buffer.from(attachment.content).toString("base64"),
    })),
  ];
  if (attachments.length > MAX_ATTACHMENTS) {
    throw new InboxProblem(
      400,
      "TOO_LONG",
      `The forward would carry ${attachments.length} attachments, the message's and yours; at most ${MAX_ATTACHMENTS} are allowed.`,
      { field: "attachments" },
    );
  }
  return {
    to: request.to,
    ...(request.cc === undefined ? {} : { cc: request.cc }),
    ...(request.bcc === undefined ? {} : { bcc: request.bcc }),
    ...(request.reply_to === undefined ? {} : { reply_to: request.reply_to }),
    subject: request.subject ?? forwardSubject(message.subject),
    text: forwardText(message, request.text),
    html: forwardHtml(message, request),
    ...(request.labels === undefined ? {} : { labels: request.labels }),
    ...(attachments.length > 0 ? { attachments } : {}),
  };
}
