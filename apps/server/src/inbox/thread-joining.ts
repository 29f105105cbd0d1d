import type { Message, ThreadItem } from "@pigeonhole/inbox-types";
import { randomBase62 } from "../ids.ts";
import type { SendTransaction } from "../storage/inbox/send-store.ts";
import { emptySummary, type SummarizedMessage, withMessage } from "../storage/inbox/thread-summaries.ts";
import { type ThreadCore, toThreadColumns, toThreadCore, withSummary } from "./records.ts";

/** A copy of a message about to be stored in one inbox, before it has a thread. */
export type UnthreadedCopy = Omit<Message, "attachments" | "thread_id" | "deliveries">;

/** The thread a copy joins in its inbox, as it will be once the copy is stored. */
export interface JoinedThread {
  thread: ThreadItem;
  isNew: boolean;
}

/**
 * The thread a new copy joins in one inbox: the thread of the first message it replies to (`replyTargets`, the
 * message answered first, then the conversation from newest to oldest) found there, or a new one. Sent, delivered
 * and received-over-SMTP copies all join threads this way.
 */
export async function joinThread(
  tx: SendTransaction,
  copy: UnthreadedCopy,
  replyTargets: readonly string[],
  participants: readonly string[],
): Promise<JoinedThread> {
  const joining: SummarizedMessage = {
    message_id: copy.message_id,
    sender: copy.from,
    recipients: [...copy.to, ...copy.cc, ...copy.bcc],
    labels: copy.labels,
    timestamp: copy.timestamp,
    size: copy.size,
    preview: copy.preview,
  };
  const existingRow = await tx.findThreadOfMessages(copy.inbox_id, replyTargets);
  if (!existingRow) {
    const core: ThreadCore = {
      thread_id: `thd_${randomBase62(16)}`,
      inbox_id: copy.inbox_id,
      subject: copy.subject,
      participants: [...new Set(participants)],
      labels: [...new Set(copy.labels)],
      message_count: 1,
      last_message_at: copy.timestamp,
      created_at: copy.created_at,
      updated_at: copy.created_at,
    };
    return { isNew: true, thread: withSummary(core, withMessage(emptySummary(), joining)) };
  }
  const [existing] = await tx.summarizeThreads([existingRow]);
  const summary = existing?.summary ?? emptySummary();
  const core = toThreadCore(existingRow);
  const joined: ThreadCore = {
    ...core,
    participants: [...new Set([...core.participants, ...participants])],
    labels: [...new Set([...core.labels, ...copy.labels])],
    message_count: core.message_count + 1,
    last_message_at: [copy.timestamp, core.last_message_at].sort().at(-1) ?? copy.timestamp,
    updated_at: copy.created_at,
  };
  return { isNew: false, thread: withSummary(joined, withMessage(summary, joining)) };
}

/** Stores threads as their copies leave them: the new ones together, each joined one updated. */
export async function saveThreads(tx: SendTransaction, joined: readonly JoinedThread[]): Promise<void> {
  await tx.insertThreads(joined.filter(({ isNew }) => isNew).map(({ thread }) => toThreadColumns(thread)));
  for (const { thread } of joined.filter(({ isNew }) => !isNew)) {
    await tx.updateThread(toThreadColumns(thread));
  }
}

export const saveThread = (tx: SendTransaction, joined: JoinedThread): Promise<void> => saveThreads(tx, [joined]);

/** Message ids in a `References` or `In-Reply-To` value. */
export const messageIdsIn = (value: string | null | undefined): string[] =>
  value ? (value.match(/<[^<>\s]+>/g) ?? value.split(/\s+/).filter(Boolean)) : [];

/** What a reply is matched against: the message answered first, then the conversation from newest to oldest. */
export const replyTargetsOf = (inReplyTo: string | null, references: readonly string[]): string[] => [
  ...new Set([...messageIdsIn(inReplyTo), ...references.toReversed()]),
];
