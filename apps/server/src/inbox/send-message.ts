import type { Attachment, Message, RecipientDelivery, SendMessageResponse } from "@pigeonhole/inbox-types";
import type { Clock } from "../clock.ts";
import { isoTimestamp } from "../clock.ts";
import { normalizeAddress } from "../mail/mail-address.ts";
import type { OutcomeSimulator } from "../mail/outbound/outcome-simulator.ts";
import type { NewRecipientDelivery } from "../storage/inbox/recipient-deliveries.ts";
import type { IdempotencyRecord, SendStore, SendTransaction } from "../storage/inbox/send-store.ts";
import { withoutBcc } from "../without-bcc.ts";
import type { AddressListRule } from "./address-lists.ts";
import { EventRecorder } from "./event-recorder.ts";
import { InboxProblem } from "./inbox-errors.ts";
import { toMessageRow } from "./records.ts";
import type { SendDraft, SendRequest } from "./send-draft.ts";
import { draftSend } from "./send-draft.ts";
import type { JoinedThread, UnthreadedCopy } from "./thread-joining.ts";
import { joinThread, saveThreads } from "./thread-joining.ts";
import { messageReceivedEvent, messageSentEvent, newEventId } from "./webhooks/events.ts";

const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

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
  /**
   * Whether an address is in a domain the server hosts: only those are delivered to a local inbox, so an inbox left
   * in another domain never intercepts mail meant for it. Every address when absent.
   */
  isHostedAddress?(address: string): boolean;
  /** The allow and block lists: a send they refuse is a 400; an inbox whose lists refuse the sender gets no copy. */
  addressLists?: AddressListRule;
}

/** The labels a copy delivered to an inbox starts with. */
export const RECEIVED_LABELS = ["received", "unread"];

/** An inbox hosted here. */
interface HostedInbox {
  inboxId: string;
  podId: string;
}

/** A copy of the message as one inbox will hold it, with the thread it joins and the source it keeps. */
interface StoredCopy {
  podId: string;
  message: Message;
  joined: JoinedThread;
  source: Uint8Array;
}

/** What every step of one send's transaction works with. */
interface SendInProgress {
  tx: SendTransaction;
  recorder: EventRecorder;
  request: SendRequest;
  draft: SendDraft;
  /** The attachments as the records list them (without their bytes). */
  attachmentRecords: Attachment[];
}

/**
 * Sends a message: stores the sender's copy (labelled `sent`) and a copy (labelled `received`) in every inbox of this
 * service among the recipients, each with its own source and attachments under its inbox (a recipient's source
 * without the Bcc field), threads each copy by its reply headers within its inbox, and writes the
 * `message.sent` and `message.received` deliveries to the outbox, the idempotency record and the day's send count,
 * all in one transaction.
 */
export async function sendMessage(context: SendContext, request: SendRequest): Promise<SendMessageResponse> {
  const draft = await draftSend(request, context.clock.now());
  const { simulator } = context;
  // A send that does not commit leaves no plan behind.
  const sends = simulator ? simulator.forgettingFailedSends(context.sends, draft.messageId) : context.sends;
  // A retry of a send made already answers that send, whatever the lists say now: they bear on new sends only.
  const repeated = await earlierSendOfKey(sends, request, draft);
  if (repeated) {
    return repeated;
  }
  const refusing = await refusingRecipients(context, request, draft);
  return sends.inSendTransaction(async (tx) => {
    const hosted = await findSenderAndLocalRecipients(tx, context, request, draft);
    const send: SendInProgress = {
      tx,
      recorder: new EventRecorder(tx),
      request,
      draft,
      attachmentRecords: draft.attachments.map(({ content: _content, ...metadata }) => metadata),
    };
    const sendsToItself = hosted.some((inbox) => inbox.inboxId === request.inboxId);
    const senderFields = senderFieldsOf(send, sendsToItself);
    const senderThread = await joinThread(tx, senderFields, draft.replyTargets, [request.inboxId, ...draft.recipients]);
    // Known once the sender's thread is: the key's record is written once, with the answer it gives.
    const response = { message_id: draft.messageId, thread_id: senderThread.thread.thread_id };
    const earlier = await claimIdempotencyKey(send, response);
    if (earlier) {
      return earlier;
    }
    const recipientDeliveries = planDeliveries(context, send, hosted, refusing);
    const sender = senderCopy(send, senderFields, senderThread, recipientDeliveries);
    const delivered = await localCopies(
      send,
      hosted.filter((inbox) => inbox.inboxId !== request.inboxId && !refusing.has(inbox.inboxId)),
    );
    await storeCopies(send, [sender, ...delivered]);
    await tx.insertRecipientDeliveries(recipientDeliveries);
    await raiseMessageEvents(send, sender, delivered, sendsToItself);
    await send.recorder.store(draft.now, draft.nowMs);
    await countAgainstDailyLimit(tx, context, request.podId, draft.nowMs);
    return response;
  });
}

/**
 * Checks the send against the allow and block lists (see address-lists.ts): refused, it throws; otherwise it answers
 * the inboxes among the recipients whose own lists refuse the sending inbox.
 */
async function refusingRecipients(
  context: SendContext,
  request: SendRequest,
  draft: SendDraft,
): Promise<ReadonlySet<string>> {
  const { addressLists, isHostedAddress } = context;
  if (!addressLists) {
    return new Set();
  }
  const local = isHostedAddress ? draft.recipients.filter((address) => isHostedAddress(address)) : draft.recipients;
  return addressLists.screenSend(request, draft, local);
}

/**
 * The inboxes hosted here among the recipients, once the sending inbox is found still to be the caller's (it may have
 * been deleted since the request began).
 */
async function findSenderAndLocalRecipients(
  tx: SendTransaction,
  context: SendContext,
  request: SendRequest,
  draft: SendDraft,
): Promise<HostedInbox[]> {
  if (!(await tx.findInbox(request.podId, request.inboxId))) {
    throw new InboxProblem(404, "NOT_FOUND", `Inbox '${request.inboxId}' was not found.`, { field: "inbox_id" });
  }
  const { isHostedAddress } = context;
  return tx.findInboxesByAddress(
    isHostedAddress ? draft.recipients.filter((address) => isHostedAddress(address)) : draft.recipients,
  );
}

/** The answer of the earlier send that holds the request's `Idempotency-Key` (within the window), if one does. */
async function earlierSendOfKey(
  sends: SendStore,
  request: SendRequest,
  draft: SendDraft,
): Promise<SendMessageResponse | undefined> {
  const key = request.idempotencyKey;
  if (key === undefined) {
    return undefined;
  }
  const notBeforeMs = draft.nowMs - IDEMPOTENCY_WINDOW_MS;
  const earlier = await sends.inSendTransaction((tx) => tx.findIdempotencyRecord(request.podId, key, notBeforeMs));
  return earlier === null ? undefined : answerOfEarlier(earlier, draft);
}

/** What a send answers when an earlier one holds its key: that send's ids, or a conflict for another request. */
function answerOfEarlier(earlier: IdempotencyRecord, draft: SendDraft): SendMessageResponse {
  if (earlier.requestHash !== draft.requestHash) {
    throw new InboxProblem(
      409,
      "IDEMPOTENCY_KEY_REUSED",
      "The Idempotency-Key was already used with a different request.",
      {
        field: "Idempotency-Key",
      },
    );
  }
  return { message_id: earlier.messageId, thread_id: earlier.threadId };
}

/**
 * Claims the send's `Idempotency-Key` with the answer it will give. A key an earlier send (within the window) holds
 * answers that send's ids, or a conflict when it came with another request; nothing is stored then.
 */
async function claimIdempotencyKey(
  { tx, request, draft }: SendInProgress,
  response: SendMessageResponse,
): Promise<SendMessageResponse | undefined> {
  if (request.idempotencyKey === undefined) {
    return undefined;
  }
  const record = { requestHash: draft.requestHash, messageId: response.message_id, threadId: response.thread_id };
  const { nowMs } = draft;
  const claim = await tx.claimIdempotencyKey(
    request.podId,
    request.idempotencyKey,
    record,
    nowMs,
    nowMs - IDEMPOTENCY_WINDOW_MS,
  );
  return "earlier" in claim ? answerOfEarlier(claim.earlier, draft) : undefined;
}

/** The sender's copy: labelled `sent` with the caller's labels, and `received` too when it is among the recipients. */
function senderFieldsOf({ request, draft }: SendInProgress, sendsToItself: boolean): UnthreadedCopy {
  const userLabels = (request.body.labels ?? []).filter((label) => label !== "sent" && label !== "received");
  const labels = [...new Set(["sent", ...userLabels, ...(sendsToItself ? RECEIVED_LABELS : [])])];
  return { ...draft.fields, inbox_id: request.inboxId, labels, bcc: draft.bcc };
}

/**
 * Where each recipient stands from the start: `local` when an inbox here receives it, `queued` for the relay (or a
 * simulated outcome), or `captured` (kept, not sent) when there is no relay.
 */
function planDeliveries(
  context: SendContext,
  { request, draft }: SendInProgress,
  hosted: readonly HostedInbox[],
  refusing: ReadonlySet<string>,
) {
  const { simulator } = context;
  const relayConfigured = context.relayConfigured ?? false;
  const hostedAddresses = new Set(hosted.map((inbox) => inbox.inboxId));
  return draft.recipients.map((address): NewRecipientDelivery => {
    const local = hostedAddresses.has(address);
    const simulated = !local && simulator?.plan(draft.messageId, address, relayConfigured) !== undefined;
    const queued = !local && (relayConfigured || simulated);
    return {
      podId: request.podId,
      inboxId: request.inboxId,
      messageId: draft.messageId,
      address,
      status: refusing.has(address) ? "bounced" : local ? "local" : queued ? "queued" : "captured",
      updatedAt: draft.now,
      nextAttemptAtMs: queued ? draft.nowMs : null,
    };
  });
}

/** The sender's record, in its thread, listing where each recipient stands. */
function senderCopy(
  { request, draft, attachmentRecords }: SendInProgress,
  fields: UnthreadedCopy,
  joined: JoinedThread,
  recipientDeliveries: readonly NewRecipientDelivery[],
): StoredCopy {
  const deliveries: RecipientDelivery[] = recipientDeliveries.map((delivery) => ({
    address: delivery.address,
    status: delivery.status,
    smtp_reply: null,
    attempts: 0,
    updated_at: draft.now,
  }));
  const message: Message = {
    ...fields,
    thread_id: joined.thread.thread_id,
    attachments: attachmentRecords,
    deliveries,
  };
  return { podId: request.podId, message, joined, source: draft.source };
}

/**
 * The copies the inboxes of this service among the recipients receive, each in the thread it joins there, with the
 * source recipients see (without `Bcc`).
 */
async function localCopies(send: SendInProgress, recipients: readonly HostedInbox[]): Promise<StoredCopy[]> {
  const { tx, request, draft, attachmentRecords } = send;
  const source = recipients.length > 0 ? withoutBcc(draft.source) : draft.source;
  // Bcc recipients stay unseen by the other recipients.
  const visible = [request.inboxId, ...[...draft.to, ...draft.cc].map(normalizeAddress)];
  const copies: StoredCopy[] = [];
  for (const recipient of recipients) {
    const fields = { ...draft.fields, inbox_id: recipient.inboxId, labels: [...RECEIVED_LABELS], bcc: [] };
    const joined = await joinThread(tx, fields, draft.replyTargets, [...visible, recipient.inboxId]);
    const message: Message = {
      ...fields,
      thread_id: joined.thread.thread_id,
      attachments: attachmentRecords,
      deliveries: [],
    };
    copies.push({ podId: recipient.podId, message, joined, source });
  }
  return copies;
}

/** Stores the copies with their threads, and each one's own source and attachments under the inbox holding it. */
async function storeCopies({ tx, draft }: SendInProgress, copies: readonly StoredCopy[]): Promise<void> {
  await saveThreads(
    tx,
    copies.map((copy) => copy.joined),
  );
  await tx.insertMessages(copies.map((copy) => toMessageRow(copy.message)));
  await tx.insertMessageSources(
    copies.map((copy) => ({ inboxId: copy.message.inbox_id, messageId: draft.messageId, source: copy.source })),
  );
  await tx.insertAttachments(
    copies.flatMap((copy) =>
      draft.attachments.map((attachment, position) => ({
        inbox_id: copy.message.inbox_id,
        message_id: draft.messageId,
        position,
        ...attachment,
      })),
    ),
  );
}

/** `message.sent` for the sender (and `message.received` when it is among the recipients), then each delivery's. */
async function raiseMessageEvents(
  { recorder }: SendInProgress,
  sender: StoredCopy,
  delivered: readonly StoredCopy[],
  sendsToItself: boolean,
): Promise<void> {
  await recorder.record(sender.podId, sender.message.inbox_id, messageSentEvent(newEventId(), sender.message));
  for (const copy of sendsToItself ? [sender, ...delivered] : delivered) {
    const event = messageReceivedEvent(newEventId(), copy.message, copy.joined.thread);
    await recorder.record(copy.podId, copy.message.inbox_id, event);
  }
}

const utcDay = (epochMs: number) => isoTimestamp(epochMs).slice(0, 10);

function secondsToNextUtcDay(epochMs: number): number {
  const next = new Date(epochMs);
  next.setUTCHours(24, 0, 0, 0);
  return Math.max(1, Math.ceil((next.getTime() - epochMs) / 1000));
}

/**
 * Counts the send on the pod's day; over the limit, the whole send rolls back. Counted last, so that the row every
 * send of the pod updates is held for the shortest time. The count is exact however many instances send at once.
 */
async function countAgainstDailyLimit(
  tx: SendTransaction,
  context: SendContext,
  podId: string,
  nowMs: number,
): Promise<void> {
  const { sendsPerDay } = context;
  if ((await tx.countSend(podId, utcDay(nowMs))) > sendsPerDay) {
    throw new InboxProblem(
      429,
      "SEND_LIMIT_EXCEEDED",
      `Send limit of ${sendsPerDay} ${sendsPerDay === 1 ? "message" : "messages"} per day exceeded.`,
      { retryAfterSeconds: secondsToNextUtcDay(nowMs) },
    );
  }
}
