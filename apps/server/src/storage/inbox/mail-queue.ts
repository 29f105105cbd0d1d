import type { Selectable } from "kysely";
import type { ClaimableRows, ClaimQueue, ClaimUpdate } from "../claimed-rows.ts";
import type { ServerDatabase } from "../database.ts";
import type { RecipientDeliveryStatus, RecipientDeliveryTable } from "../schema.ts";
import { SqlClaimQueue } from "../sql-claim-queue.ts";

// The outbound mail queue: the rows of `recipient_deliveries` still waiting for the relay (`queued`, `delayed`),
// written in the send's transaction and worked off by the outbound mail workers of every instance on the database.

/** A recipient claimed by this instance, with what is needed to relay the message to it. */
export interface ClaimedMail {
  seq: number;
  podId: string;
  /** The sending inbox, whose address is the envelope sender. */
  inboxId: string;
  messageId: string;
  threadId: string;
  address: string;
  status: "queued" | "delayed";
  attempts: number;
  /** The stored RFC 5322 source of the message, `Bcc` included. */
  source: Uint8Array;
}

/** Where a recipient stands after an attempt. */
export interface MailAttemptState {
  status: RecipientDeliveryStatus;
  smtpReply: string;
  attempts: number;
  updatedAt: string;
  /** When to try again; null once the status is final. */
  nextAttemptAtMs: number | null;
}

/**
 * The queue as the outbound mail worker uses it: its waiting recipients are claimed as {@link ClaimQueue} says, and
 * outcomes are recorded in a send transaction, with their events.
 */
export type MailQueue = ClaimQueue<ClaimedMail>;

const RECIPIENT_ROWS = { table: "recipient_deliveries", waiting: ["queued", "delayed"] } satisfies ClaimableRows;

/** The columns a claim reads back of a recipient. */
const CLAIMED_COLUMNS = [
  "seq",
  "pod_id",
  "inbox_id",
  "message_id",
  "address",
  "status",
  "attempts",
  "next_attempt_at_ms",
] as const;
type ClaimedRecipient = Pick<Selectable<RecipientDeliveryTable>, (typeof CLAIMED_COLUMNS)[number]>;

export class SqlMailQueue
  extends SqlClaimQueue<"recipient_deliveries", ClaimedRecipient, ClaimedMail>
  implements MailQueue
{
  protected readonly rows = RECIPIENT_ROWS;

  protected readClaimed(update: ClaimUpdate<"recipient_deliveries">) {
    return update.returning(CLAIMED_COLUMNS).execute();
  }

  protected async toClaims(claimed: ClaimedRecipient[]): Promise<ClaimedMail[]> {
    const mail: ClaimedMail[] = [];
    for (const row of claimed) {
      const message = await this.db
        .selectFrom("messages")
        .innerJoin("message_sources", (join) =>
          join
            .onRef("message_sources.inbox_id", "=", "messages.inbox_id")
            .onRef("message_sources.message_id", "=", "messages.message_id"),
        )
        .select(["messages.thread_id", "message_sources.source"])
        .where("messages.inbox_id", "=", row.inbox_id)
        .where("messages.message_id", "=", row.message_id)
        .executeTakeFirst();
      if (message && (row.status === "queued" || row.status === "delayed")) {
        mail.push({
          seq: row.seq,
          podId: row.pod_id,
          inboxId: row.inbox_id,
          messageId: row.message_id,
          threadId: message.thread_id,
          address: row.address,
          status: row.status,
          attempts: row.attempts,
          source: message.source,
        });
      }
    }
    return mail;
  }
}

/**
 * Records an attempt's outcome and ends the claim, only while the claim is `claimant`'s (after it ran out another
 * instance may have taken the recipient). False when it was not.
 */
export async function recordMailAttempt(
  db: ServerDatabase,
  seq: number,
  claimant: string,
  state: MailAttemptState,
): Promise<boolean> {
  const updated = await db
    .updateTable("recipient_deliveries")
    .set({
      status: state.status,
      smtp_reply: state.smtpReply,
      attempts: state.attempts,
      updated_at: state.updatedAt,
      next_attempt_at_ms: state.nextAttemptAtMs,
      claimed_by: null,
      claimed_until_ms: null,
    })
    .where("seq", "=", seq)
    .where("claimed_by", "=", claimant)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) > 0;
}
