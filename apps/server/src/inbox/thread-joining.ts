import type { Message, ThreadItem } from "@pigeonhole/inbox-types";
import { randomBase62 } from "../ids.ts";
import type { SendTransaction } from "../storage/inbox/send-store.ts";
import { toThreadColumns, toThreadItem } from "./records.ts";

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
  const existingRow = await tx.findThreadOfMessages(copy.inbox_id, replyTargets);
  if (!existingRow) {
    return {
      isNew: true,
      thread: {
        thread_id: `thd_${randomBase62(16)}`,
        inbox_id: copy.inbox_id,
        subject: copy.subject,
        participants: [...new Set(participants)],
        labels: [...new Set(copy.labels)],
        message_count: 1,
        last_message_at: copy.timestamp,
        created_at: copy.created_at,
        updated_at: copy.created_at,
      },
    };
  }
  const existing = toThreadItem(existingRow);
  return {
    isNew: false,
    thread: {
      ...existing,
      participants: [...new Set([...existing.participants, ...participants])],
      labels: [...new Set([...existing.labels, ...copy.labels])],
      message_count: existing.message_count + 1,
      last_message_at: [copy.timestamp, existing.last_message_at].sort().at(-1) ?? copy.timestamp,
      updated_at: copy.created_at,
    },
  };
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
