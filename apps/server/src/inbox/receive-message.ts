import type { Message } from "@pigeonhole/inbox-types";
import type { Clock } from "../clock.ts";
import { isoTimestamp } from "../clock.ts";
import { newUuid, randomBase62 } from "../ids.ts";
import { parseMail } from "../mail/inbound/parse-mail.ts";
import { RefusedMessageError } from "../mail/inbound/refused-message-error.ts";
import type { ReceivedMail } from "../mail/inbound/smtp-listener.ts";
import { normalizeAddress } from "../mail/mail-address.ts";
import type { SendStore } from "../storage/inbox/send-store.ts";
import type { AddressListRule } from "./address-lists.ts";
import { EventRecorder } from "./event-recorder.ts";
import { withoutFieldHeaders } from "./field-headers.ts";
import { toMessageRow } from "./records.ts";
import { RECEIVED_LABELS } from "./send-message.ts";
import { joinThread, replyTargetsOf, saveThread } from "./thread-joining.ts";
import { messageReceivedEvent, newEventId } from "./webhooks/events.ts";

const PREVIEW_LENGTH = 200;

export interface ReceiveContext {
  sends: SendStore;
  clock: Clock;
  /** The spec's address rule: addresses from outside that break it are left out of the records. */
  isValidAddress(address: string): boolean;
  /** The domain of message ids made up for mail that came without one. */
  defaultDomain: string;
  /** The allow and block lists: an inbox whose receive lists refuse the sender gets no copy. */
  addressLists?: AddressListRule;
}

/**
 * Stores mail received over SMTP: one copy per hosted envelope recipient, labelled `received` and `unread`, each
 * joining its thread by `In-Reply-To`/`References` within its inbox as local replies do, with the raw source and the
 * attachments of this arrival kept under that inbox, and `message.received` for each copy, all in one transaction.
 * When it resolves, the mail is committed. Mail received again with the same `Message-ID` (a sender retrying after a
 * lost answer) adds no second copy to an inbox that has it; an inbox without it gets its own copy from this arrival,
 * whatever other inboxes hold under that id, since the sender chooses the id.
 */
export async function receiveMessage(context: ReceiveContext, mail: ReceivedMail): Promise<{ messageId: string }> {
  const parsed = await parseMail(mail.raw);
  const nowMs = context.clock.now();
  const now = isoTimestamp(nowMs);
  const messageId = parsed.messageId ?? `<${newUuid()}@${context.defaultDomain}>`;
  const valid = (addresses: readonly string[]) =>
    [...new Set(addresses.map(normalizeAddress))].filter((address) => context.isValidAddress(address));
  const to = valid(parsed.to);
  const cc = valid(parsed.cc);
  const fromAddress = valid(parsed.fromAddresses)[0];
  const base = {
    message_id: messageId,
    timestamp: parsed.date ? isoTimestamp(parsed.date.getTime()) : now,
    from: parsed.from,
    to,
    cc,
    bcc: [],
    reply_to: valid(parsed.replyTo),
    subject: parsed.subject,
    preview: parsed.text === null ? null : parsed.text.slice(0, PREVIEW_LENGTH),
    text: parsed.text,
    html: parsed.html,
    in_reply_to: parsed.inReplyTo,
    references: parsed.references,
    headers: withoutFieldHeaders(parsed.headers),
    size: mail.raw.length,
    labels: [...RECEIVED_LABELS],
    created_at: now,
    updated_at: now,
  };
  const attachments = parsed.attachments.map((attachment, position) => ({
    position,
    attachment_id: `att_${randomBase62(16)}`,
    filename: attachment.filename,
    content_type: attachment.contentType,
    size: attachment.content.length,
    content: new Uint8Array(attachment.content),
  }));
  const replyTargets = replyTargetsOf(parsed.inReplyTo, parsed.references);

  const refusing = await refusingInboxes(context, fromAddress, mail);
  await context.sends.inSendTransaction(async (tx) => {
    const recorder = new EventRecorder(tx);
    const hosted = await tx.findInboxesByAddress([...new Set(mail.recipients.map(normalizeAddress))]);
    const attachmentRecords = attachments.map(({ attachment_id, filename, content_type, size }) => ({
      attachment_id,
      filename,
      content_type,
      size,
    }));
    for (const recipient of hosted.filter((inbox) => !refusing.has(inbox.inboxId))) {
      // A concurrent arrival of the same mail into this inbox that committed first leaves the source taken.
      if (
        (await tx.holdsMessage(recipient.inboxId, messageId)) ||
        !(await tx.insertMessageSource(recipient.inboxId, messageId, mail.raw))
      ) {
        continue;
      }
      await tx.insertAttachments(
        attachments.map((attachment) => ({ ...attachment, inbox_id: recipient.inboxId, message_id: messageId })),
      );
      const copy = { ...base, inbox_id: recipient.inboxId };
      const participants = [...(fromAddress ? [fromAddress] : []), ...to, ...cc, recipient.inboxId];
      const joined = await joinThread(tx, copy, replyTargets, participants);
      await saveThread(tx, joined);
      const message: Message = {
        ...copy,
        thread_id: joined.thread.thread_id,
        attachments: attachmentRecords,
        deliveries: [],
      };
      await tx.insertMessages([toMessageRow(message)]);
      await recorder.record(
        recipient.podId,
        recipient.inboxId,
        messageReceivedEvent(newEventId(), message, joined.thread),
      );
    }
    await recorder.store(now, nowMs);
  });
  return { messageId };
}

/**
 * The recipient inboxes whose receive lists (or their pods') refuse the sender, the message's From address (see
 * address-lists.ts). When all of them do, the message is refused as a whole, with a permanent reply.
 */
async function refusingInboxes(
  context: ReceiveContext,
  fromAddress: string | undefined,
  mail: ReceivedMail,
): Promise<ReadonlySet<string>> {
  if (!context.addressLists) {
    return new Set();
  }
  const recipients = [...new Set(mail.recipients.map(normalizeAddress))];
  const refusing = await context.addressLists.refusingInboxes(fromAddress, recipients);
  if (recipients.length > 0 && recipients.every((address) => refusing.has(address))) {
    throw new RefusedMessageError(554, "5.7.1 The recipients do not accept mail from this sender", "sender_refused");
  }
  return refusing;
}
