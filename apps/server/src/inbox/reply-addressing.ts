import type { Message, SendMessageRequest } from "@pigeonhole/inbox-types";
import { normalizeAddress } from "../mail/mail-address.ts";

/** The bare address inside `Name <address>`, or the value itself when it is one. */
export function bareAddress(value: string): string {
  return (/<([^<>]*)>\s*$/.exec(value)?.[1] ?? value).trim();
}

const addressOf = (value: string): string => normalizeAddress(bareAddress(value));

/**
 * The bare addresses of `lists`, in order, leaving out repeats and `excluded` (compared without case, as `excluded`
 * is given).
 */
function distinct(lists: readonly (readonly string[])[], excluded: Set<string>): string[] {
  const seen = new Set(excluded);
  const out: string[] = [];
  for (const value of lists.flat()) {
    const address = addressOf(value);
    if (!seen.has(address)) {
      seen.add(address);
      out.push(bareAddress(value));
    }
  }
  return out;
}

const REPLY_PREFIX = /^\s*re\s*:/i;

/** The subject of a reply: the message's, with `Re: ` before it once. */
export function replySubject(subject: string | null): string {
  const original = subject ?? "";
  return REPLY_PREFIX.test(original) ? original : `Re: ${original}`.trimEnd();
}

/**
 * Who a reply from `inboxId` to `message` goes to: the message's `reply_to`, else its sender; for a message the
 * inbox sent itself, its original `to`. With `replyAll`, the message's other `to` addresses join `to` and its `cc`
 * stays `cc`. The inbox itself is never a recipient, and no address appears twice.
 */
export function replyRecipients(
  inboxId: string,
  message: Pick<Message, "from" | "to" | "cc" | "reply_to">,
  replyAll: boolean,
): { to: string[]; cc: string[] } {
  const self = new Set([normalizeAddress(inboxId)]);
  const sentHere = addressOf(message.from) === normalizeAddress(inboxId);
  const primary = sentHere ? message.to : message.reply_to.length > 0 ? message.reply_to : [message.from];
  const to = distinct(replyAll ? [primary, message.to] : [primary], self);
  const cc = replyAll ? distinct([message.cc], new Set([...self, ...to.map(addressOf)])) : [];
  return { to, cc };
}

/** The Send Message body of a reply: its recipients, subject and threading headers, and the caller's content. */
export function replySendBody(
  message: Message,
  reply: { text?: string; html?: string; labels?: string[]; attachments?: SendMessageRequest["attachments"] },
  recipients: { to: string[]; cc: string[] },
): SendMessageRequest {
  const references = [...message.references.filter((id) => id !== message.message_id), message.message_id];
  return {
    to: recipients.to,
    ...(recipients.cc.length > 0 ? { cc: recipients.cc } : {}),
    subject: replySubject(message.subject),
    ...(reply.text === undefined ? {} : { text: reply.text }),
    ...(reply.html === undefined ? {} : { html: reply.html }),
    ...(reply.labels === undefined ? {} : { labels: reply.labels }),
    ...(reply.attachments === undefined ? {} : { attachments: reply.attachments }),
    headers: { "In-Reply-To": message.message_id, References: references.join(" ") },
  };
}
