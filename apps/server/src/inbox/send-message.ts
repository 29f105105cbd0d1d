import type { Message, RecipientDelivery, SendMessageRequest, SendMessageResponse } from "@pigeonhole/inbox-types";
import { canonicalJson } from "../canonical-json.ts";
import type { Clock } from "../clock.ts";
import { isoTimestamp } from "../clock.ts";
import { newUuid, randomBase62, sha256Hex } from "../ids.ts";
import type { OutcomeSimulator } from "../mail/outbound/outcome-simulator.ts";
import type { NewRecipientDelivery } from "../storage/inbox/recipient-deliveries.ts";
import type { SendStore } from "../storage/inbox/send-store.ts";
import { formatSender, normalizeAddress, toAddressList } from "./addresses.ts";
import { EventRecorder } from "./event-recorder.ts";
import { InboxProblem } from "./inbox-errors.ts";
import { buildMessageSource, withoutBcc } from "./message-source.ts";
import { toMessageRow } from "./records.ts";
import { joinThread, messageIdsIn, replyTargetsOf, saveThread } from "./thread-joining.ts";
import { messageReceivedEvent, messageSentEvent, newEventId } from "./webhooks/events.ts";

export const MAX_RECIPIENTS = 50;
/** Decoded attachments of one message, in all. */
export const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024;
const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;
const PREVIEW_LENGTH = 200;

export interface SendContext {
  sends: SendStore;
  clock: Clock;
  sendsPerDay: number;
  /** Whether outside recipients go out through a relay (`queued`) or are only kept (`captured`). */
  relayConfigured?: boolean;
  /**
   * Asked about every outside recipient: one it gives an outcome for is queued for the outbound worker, which
   * simulates that outcome instead of relaying (with a relay or without).
   */
  simulator?: OutcomeSimulator;
  /** Called after a send that queued mail for the relay (or a simulated outcome) has committed. */
  onMailQueued?(): void;
  /** Called after a send that enqueued webhook deliveries has committed. */
  onDeliveriesEnqueued(): void;
  /** Called after a send has committed, with the pods it stored events for. */
  onEventsStored?(podIds: readonly string[]): void;
  /**
   * Whether an address is in a domain the server hosts: only those are delivered to a local inbox, so an inbox left
   * in another domain never intercepts mail meant for it. Every address when absent.
   */
  isHostedAddress?(address: string): boolean;
}

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

/** The labels a copy delivered to an inbox starts with. */
export const RECEIVED_LABELS = ["received", "unread"];

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

/** An attachment of a send: its metadata plus the decoded content. */
interface DecodedAttachment {
  attachment_id: string;
  filename: string;
  content_type: string;
  size: number;
  content: Uint8Array;
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

const utcDay = (epochMs: number) => isoTimestamp(epochMs).slice(0, 10);

function secondsToNextUtcDay(epochMs: number): number {
  const next = new Date(epochMs);
  next.setUTCHours(24, 0, 0, 0);
  return Math.max(1, Math.ceil((next.getTime() - epochMs) / 1000));
}

/**
 * Sends a message: stores the sender's copy (labelled `sent`) and a copy (labelled `received`) in every inbox of this
 * service among the recipients, each with its own source and attachments under its inbox (a recipient's source
 * without the Bcc field), threads each copy by its reply headers within its inbox, and writes the
 * `message.sent` and `message.received` deliveries to the outbox, the idempotency record and the day's send count,
 * all in one transaction.
 */
export async function sendMessage(context: SendContext, request: SendRequest): Promise<SendMessageResponse> {
  const { body } = request;
  const to = toAddressList(body.to);
  const cc = toAddressList(body.cc);
  const bcc = toAddressList(body.bcc);
  const recipientCount = to.length + cc.length + bcc.length;
  if (recipientCount > MAX_RECIPIENTS) {
    throw new InboxProblem(
      400,
      "TOO_MANY_RECIPIENTS",
      `The message has ${recipientCount} recipients over to, cc and bcc; at most ${MAX_RECIPIENTS} are allowed.`,
      { field: bcc.length > 0 ? "bcc" : cc.length > 0 ? "cc" : "to" },
    );
  }
  const attachments = decodeAttachments(body);
  // Only a send with an Idempotency-Key is compared with an earlier one.
  const requestHash =
    request.idempotencyKey === undefined
      ? ""
      : sha256Hex(canonicalJson(request.fingerprint ?? { inbox_id: request.inboxId, body }));
  const headers = body.headers ?? {};
  const inReplyTo = headerValue(headers, "In-Reply-To")?.trim() || null;
  const references = messageIdsIn(headerValue(headers, "References"));
  const replyTargets = replyTargetsOf(inReplyTo, references);

  const nowMs = context.clock.now();
  const now = isoTimestamp(nowMs);
  const messageId = `<${newUuid()}@${request.inboxId.split("@")[1]}>`;
  const from = formatSender(request.inboxId, request.displayName);
  // Built before the transaction, which it would otherwise hold for as long as MIME encoding takes.
  const source = await buildMessageSource({
    message_id: messageId,
    timestamp: now,
    from,
    to,
    cc,
    bcc,
    reply_to: toAddressList(body.reply_to),
    subject: body.subject ?? null,
    text: body.text ?? null,
    html: body.html ?? null,
    in_reply_to: inReplyTo,
    references,
    headers,
    attachments,
  });

  let enqueued = 0;
  let eventPods: string[] = [];
  let mailQueued = false;
  const { simulator } = context;
  const relayConfigured = context.relayConfigured ?? false;
  // A send that does not commit leaves no plan behind.
  const sends = simulator ? simulator.forgettingFailedSends(context.sends, messageId) : context.sends;
  const response = await sends.inSendTransaction(async (tx) => {
    const sender = await tx.findInbox(request.podId, request.inboxId);
    if (!sender) {
      throw new InboxProblem(404, "NOT_FOUND", `Inbox '${request.inboxId}' was not found.`, { field: "inbox_id" });
    }
    if (request.idempotencyKey !== undefined) {
      const claim = await tx.claimIdempotencyKey(
        request.podId,
        request.idempotencyKey,
        requestHash,
        nowMs,
        nowMs - IDEMPOTENCY_WINDOW_MS,
      );
      if ("earlier" in claim) {
        const record = claim.earlier;
        if (record.requestHash !== requestHash) {
          throw new InboxProblem(
            409,
            "IDEMPOTENCY_KEY_REUSED",
            "The Idempotency-Key was already used with a different request.",
            {
              field: "Idempotency-Key",
            },
          );
        }
        return { message_id: record.messageId, thread_id: record.threadId };
      }
    }
    const fromAddress = sender.inbox_id;
    const size =
      Buffer.byteLength(body.subject ?? "") +
      Buffer.byteLength(body.text ?? "") +
      Buffer.byteLength(body.html ?? "") +
      Object.entries(headers).reduce((sum, [name, value]) => sum + Buffer.byteLength(`${name}: ${value}\r\n`), 0) +
      attachments.reduce((sum, attachment) => sum + attachment.size, 0);
    const base = {
      message_id: messageId,
      timestamp: now,
      from,
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
      size,
      created_at: now,
      updated_at: now,
    };
    const attachmentRecords = attachments.map(({ content: _content, ...metadata }) => metadata);
    /** Keeps a copy's own source and attachments, under the inbox holding it. */
    const storeContent = async (inboxId: string, copySource: Uint8Array) => {
      await tx.insertAttachments(
        attachments.map((attachment, position) => ({
          inbox_id: inboxId,
          message_id: messageId,
          position,
          ...attachment,
        })),
      );
      await tx.insertMessageSource(inboxId, messageId, copySource);
    };
    const recipientSource = withoutBcc(source);
    const recorder = new EventRecorder(tx);
    const recipientAddresses = [...new Set([...to, ...cc, ...bcc].map(normalizeAddress))];
    const { isHostedAddress } = context;
    const hosted = await tx.findInboxesByAddress(
      isHostedAddress ? recipientAddresses.filter((address) => isHostedAddress(address)) : recipientAddresses,
    );
    const sendsToItself = hosted.some((inbox) => inbox.inboxId === sender.inbox_id);
    const userLabels = (body.labels ?? []).filter((label) => label !== "sent" && label !== "received");
    const senderLabels = [...new Set(["sent", ...userLabels, ...(sendsToItself ? RECEIVED_LABELS : [])])];
    const participants = [fromAddress, ...recipientAddresses];

    const hostedAddresses = new Set(hosted.map((inbox) => inbox.inboxId));
    const recipientDeliveries = recipientAddresses.map((address): NewRecipientDelivery => {
      const local = hostedAddresses.has(address);
      const simulated = !local && simulator?.plan(messageId, address, relayConfigured) !== undefined;
      const queued = !local && (relayConfigured || simulated);
      return {
        podId: request.podId,
        inboxId: sender.inbox_id,
        messageId,
        address,
        status: local ? "local" : queued ? "queued" : "captured",
        updatedAt: now,
        nextAttemptAtMs: queued ? nowMs : null,
      };
    });
    const deliveries: RecipientDelivery[] = recipientDeliveries.map((delivery) => ({
      address: delivery.address,
      status: delivery.status,
      smtp_reply: null,
      attempts: 0,
      updated_at: now,
    }));

    const senderCopy = { ...base, inbox_id: sender.inbox_id, labels: senderLabels, bcc };
    const senderThread = await joinThread(tx, senderCopy, replyTargets, participants);
    await saveThread(tx, senderThread);
    const senderMessage: Message = {
      ...senderCopy,
      thread_id: senderThread.thread.thread_id,
      attachments: attachmentRecords,
      deliveries,
    };
    await tx.insertMessage(toMessageRow(senderMessage));
    await storeContent(sender.inbox_id, source);
    await tx.insertRecipientDeliveries(recipientDeliveries);
    await recorder.record(request.podId, sender.inbox_id, messageSentEvent(newEventId(), senderMessage));
    if (sendsToItself) {
      await recorder.record(
        request.podId,
        sender.inbox_id,
        messageReceivedEvent(newEventId(), senderMessage, senderThread.thread),
      );
    }

    for (const recipient of hosted) {
      if (recipient.inboxId === sender.inbox_id) {
        continue;
      }
      const copy = { ...base, inbox_id: recipient.inboxId, labels: [...RECEIVED_LABELS], bcc: [] };
      const visibleParticipants = [fromAddress, ...[...to, ...cc].map(normalizeAddress), recipient.inboxId];
      const { thread, isNew } = await joinThread(tx, copy, replyTargets, visibleParticipants);
      await saveThread(tx, { thread, isNew });
      const message: Message = { ...copy, thread_id: thread.thread_id, attachments: attachmentRecords, deliveries: [] };
      await tx.insertMessage(toMessageRow(message));
      await storeContent(recipient.inboxId, recipientSource);
      await recorder.record(recipient.podId, recipient.inboxId, messageReceivedEvent(newEventId(), message, thread));
    }

    await recorder.store(now, nowMs);
    const result = { message_id: messageId, thread_id: senderThread.thread.thread_id };
    if (request.idempotencyKey !== undefined) {
      await tx.completeIdempotencyKey(request.podId, request.idempotencyKey, result.message_id, result.thread_id);
    }
    // Counted last, so that the row every send of the pod updates is held for the shortest time; over the limit, the
    // whole send rolls back. The count is exact however many instances send at once.
    if ((await tx.countSend(request.podId, utcDay(nowMs))) > context.sendsPerDay) {
      throw new InboxProblem(
        429,
        "SEND_LIMIT_EXCEEDED",
        `Send limit of ${context.sendsPerDay} ${context.sendsPerDay === 1 ? "message" : "messages"} per day exceeded.`,
        { retryAfterSeconds: secondsToNextUtcDay(nowMs) },
      );
    }
    enqueued = recorder.deliveryCount;
    eventPods = recorder.pods;
    mailQueued = recipientDeliveries.some((delivery) => delivery.status === "queued");
    return result;
  });
  if (enqueued > 0) {
    context.onDeliveriesEnqueued();
  }
  if (eventPods.length > 0) {
    context.onEventsStored?.(eventPods);
  }
  if (mailQueued) {
    context.onMailQueued?.();
  }
  return response;
}
