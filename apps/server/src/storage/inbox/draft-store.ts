import type { Insertable, Selectable, Transaction, Updateable } from "kysely";
import { cappedInsert } from "../capped-insert.ts";
import type { ClaimableRows, ClaimQueue, ClaimUpdate } from "../claimed-rows.ts";
import type { ServerDatabase } from "../database.ts";
import { retryingTransaction } from "../retrying-transaction.ts";
import type { DatabaseSchema, DraftAttachmentTable, DraftTable } from "../schema.ts";
import { SqlClaimQueue } from "../sql-claim-queue.ts";
import type { SqlDialect } from "../sql-dialect.ts";
import { perDialect } from "../sql-dialect.ts";
import type { PageRequest, Positioned } from "./paging.ts";
import { newestFirst } from "./paging.ts";

// Drafts of inboxes and their attachments. A scheduled draft (`status` `scheduled`) is also a row of a claimed work
// table, due at its `send_at`, which the scheduled-draft workers of every instance on the database work off.

export type DraftRow = Selectable<DraftTable>;
export type NewDraftRow = Omit<Insertable<DraftTable>, "seq" | "claimed_by" | "claimed_until_ms">;
/** The columns an update may change. */
export type DraftColumns = Omit<Updateable<DraftTable>, "seq" | "draft_id" | "pod_id" | "inbox_id" | "created_at">;
export type DraftAttachmentContent = Omit<DraftAttachmentTable, "draft_id" | "position">;
export type DraftAttachmentMetadata = Omit<DraftAttachmentContent, "content">;

/** A draft with its attachments' metadata. */
export interface StoredDraft {
  draft: DraftRow;
  attachments: DraftAttachmentMetadata[];
}

/** What an update does to a draft, decided from the draft as it stands (see `DraftStore.updateDraft`). */
export interface DraftChange {
  columns: DraftColumns;
  removeAttachmentIds: readonly string[];
  addAttachments: readonly DraftAttachmentContent[];
}

/** Where a draft is looked for: in one inbox of the pod, or in any. */
export interface DraftScope {
  podId: string;
  inboxId?: string;
}

export interface DraftStore {
  /**
   * Stores a new draft; a pod's `client_id` taken already answers that draft, unchanged. A pod that has `maxPerPod`
   * drafts already gets none (`limitReached`), however many creates race.
   */
  createDraft(
    row: NewDraftRow,
    attachments: readonly DraftAttachmentContent[],
    maxPerPod: number,
  ): Promise<{ created: StoredDraft } | { existing: StoredDraft } | { limitReached: number }>;
  findDraft(scope: DraftScope, draftId: string): Promise<StoredDraft | null>;
  /** The attachments of a draft with their bytes, in order. */
  draftAttachments(draftId: string): Promise<DraftAttachmentContent[]>;
  /** A page of the drafts of a pod (`scope.podId`) or of one inbox, newest first. */
  listDrafts(scope: DraftScope, page: PageRequest): Promise<Positioned<StoredDraft>[]>;
  /**
   * Changes a draft in one transaction, the draft locked while `change` decides from it what to do (it may throw to
   * refuse); null when the scope has no such draft.
   */
  updateDraft(
    scope: DraftScope,
    draftId: string,
    change: (current: StoredDraft) => DraftChange,
  ): Promise<StoredDraft | null>;
  /** Deletes a draft with its attachments; false when the scope has no such draft. */
  deleteDraft(scope: DraftScope, draftId: string): Promise<boolean>;
  /**
   * Records that a claimed scheduled draft could not be sent (it stays, `failed`, and is no longer due), only while
   * `claimant` still holds it.
   */
  markFailed(draftId: string, claimant: string, at: string): Promise<void>;
}

/** A scheduled draft claimed by this instance, to be sent. */
export interface ClaimedDraft {
  seq: number;
  draftId: string;
  podId: string;
  inboxId: string;
}

/** The scheduled drafts as the scheduled-draft worker claims them (see {@link ClaimQueue}). */
export type DraftQueue = ClaimQueue<ClaimedDraft>;

const SCHEDULED_ROWS = { table: "drafts", waiting: ["scheduled"] } satisfies ClaimableRows;
const CLAIMED_COLUMNS = ["seq", "draft_id", "pod_id", "inbox_id", "status", "next_attempt_at_ms"] as const;
type ClaimedDraftRow = Pick<DraftRow, (typeof CLAIMED_COLUMNS)[number]>;

export class SqlDraftQueue extends SqlClaimQueue<"drafts", ClaimedDraftRow, ClaimedDraft> implements DraftQueue {
  protected readonly rows = SCHEDULED_ROWS;

  protected readClaimed(update: ClaimUpdate<"drafts">) {
    return update.returning(CLAIMED_COLUMNS).execute();
  }

  protected async toClaims(rows: ClaimedDraftRow[]): Promise<ClaimedDraft[]> {
    return rows.map((row) => ({ seq: row.seq, draftId: row.draft_id, podId: row.pod_id, inboxId: row.inbox_id }));
  }
}

const draftQueries = perDialect((dialect) => ({
  podPage: newestFirst(dialect, (db, podId) => db.selectFrom("drafts").selectAll().where("pod_id", "=", podId), {
    labelsColumn: "labels",
  }),
  inboxPage: newestFirst(
    dialect,
    (db, inboxId) => db.selectFrom("drafts").selectAll().where("inbox_id", "=", inboxId),
    {
      labelsColumn: "labels",
    },
  ),
}));

const METADATA_COLUMNS = ["draft_id", "attachment_id", "filename", "content_type", "size"] as const;

export class SqlDraftStore implements DraftStore {
  readonly #db: ServerDatabase;
  readonly #dialect: SqlDialect;
  readonly #q: ReturnType<typeof draftQueries>;

  constructor(db: ServerDatabase, dialect: SqlDialect) {
    this.#db = db;
    this.#dialect = dialect;
    this.#q = draftQueries(dialect);
  }

  async createDraft(
    row: NewDraftRow,
    attachments: readonly DraftAttachmentContent[],
    maxPerPod: number,
  ): Promise<{ created: StoredDraft } | { existing: StoredDraft } | { limitReached: number }> {
    const existing = async () =>
      row.client_id === null || row.client_id === undefined
        ? null
        : this.#findBy(this.#db, { podId: row.pod_id }, (query) => query.where("client_id", "=", row.client_id ?? ""));
    const earlier = await existing();
    if (earlier) {
      return { existing: earlier };
    }
    try {
      const stored = await retryingTransaction(this.#db, this.#dialect, (trx) =>
        cappedInsert(
          trx,
          this.#dialect,
          { table: "drafts", podId: row.pod_id, maxPerPod },
          {
            async insert() {
              await trx.insertInto("drafts").values(row).execute();
              await insertAttachments(trx, row.draft_id, attachments, 0);
              return { stored: true as const };
            },
          },
        ),
      );
      if ("limitReached" in stored) {
        return stored;
      }
    } catch (error) {
      // Another request with the same client_id won the race: its draft is the answer.
      const winner = this.#dialect.isUniqueViolation(error) ? await existing() : null;
      if (winner) {
        return { existing: winner };
      }
      throw error;
    }
    const created = await this.findDraft({ podId: row.pod_id }, row.draft_id);
    if (!created) {
      throw new Error(`Draft ${row.draft_id} was not found after it was stored.`);
    }
    return { created };
  }

  findDraft(scope: DraftScope, draftId: string) {
    return this.#findBy(this.#db, scope, (query) => query.where("draft_id", "=", draftId));
  }

  async draftAttachments(draftId: string) {
    return this.#db
      .selectFrom("draft_attachments")
      .select(["attachment_id", "filename", "content_type", "size", "content"])
      .where("draft_id", "=", draftId)
      .orderBy("position")
      .execute();
  }

  async listDrafts(scope: DraftScope, page: PageRequest) {
    const rows =
      scope.inboxId === undefined
        ? await this.#q.podPage(this.#db, scope.podId, page)
        : (await this.#q.inboxPage(this.#db, scope.inboxId, page)).filter(({ row }) => row.pod_id === scope.podId);
    const attachments = await attachmentsOf(
      this.#db,
      rows.map(({ row }) => row.draft_id),
    );
    return rows.map(({ row, position }) => ({
      row: { draft: row, attachments: attachments.get(row.draft_id) ?? [] },
      position,
    }));
  }

  updateDraft(scope: DraftScope, draftId: string, change: (current: StoredDraft) => DraftChange) {
    return retryingTransaction(this.#db, this.#dialect, async (trx) => {
      const locked = await this.#dialect
        .lockRows(scoped(trx, scope).select("seq").where("draft_id", "=", draftId))
        .executeTakeFirst();
      if (!locked) {
        return null;
      }
      const current = await this.#findBy(trx, scope, (query) => query.where("draft_id", "=", draftId));
      if (!current) {
        return null;
      }
      const { columns, removeAttachmentIds, addAttachments } = change(current);
      await trx.updateTable("drafts").set(columns).where("seq", "=", locked.seq).execute();
      if (removeAttachmentIds.length > 0) {
        await trx
          .deleteFrom("draft_attachments")
          .where("draft_id", "=", draftId)
          .where("attachment_id", "in", removeAttachmentIds)
          .execute();
      }
      const last = await trx
        .selectFrom("draft_attachments")
        .select((eb) => eb.fn.max("position").as("position"))
        .where("draft_id", "=", draftId)
        .executeTakeFirst();
      await insertAttachments(trx, draftId, addAttachments, Number(last?.position ?? -1) + 1);
      return this.#findBy(trx, scope, (query) => query.where("draft_id", "=", draftId));
    });
  }

  deleteDraft(scope: DraftScope, draftId: string) {
    return retryingTransaction(this.#db, this.#dialect, async (trx) => {
      const deleted = await scopedDelete(trx, scope).where("draft_id", "=", draftId).executeTakeFirst();
      if (Number(deleted.numDeletedRows) === 0) {
        return false;
      }
      await trx.deleteFrom("draft_attachments").where("draft_id", "=", draftId).execute();
      return true;
    });
  }

  async markFailed(draftId: string, claimant: string, at: string) {
    await this.#db
      .updateTable("drafts")
      .set({ status: "failed", next_attempt_at_ms: null, claimed_by: null, claimed_until_ms: null, updated_at: at })
      .where("draft_id", "=", draftId)
      .where("claimed_by", "=", claimant)
      .execute();
  }

  async #findBy(
    db: ServerDatabase | Transaction<DatabaseSchema>,
    scope: DraftScope,
    where: (query: ReturnType<typeof scoped>) => ReturnType<typeof scoped>,
  ): Promise<StoredDraft | null> {
    const draft = await where(scoped(db, scope)).selectAll().executeTakeFirst();
    if (!draft) {
      return null;
    }
    const attachments = await attachmentsOf(db, [draft.draft_id]);
    return { draft, attachments: attachments.get(draft.draft_id) ?? [] };
  }
}

/** The drafts of a scope: the pod's, or one of its inboxes'. */
function scoped(db: ServerDatabase | Transaction<DatabaseSchema>, scope: DraftScope) {
  const ofPod = db.selectFrom("drafts").where("pod_id", "=", scope.podId);
  return scope.inboxId === undefined ? ofPod : ofPod.where("inbox_id", "=", scope.inboxId);
}

function scopedDelete(trx: Transaction<DatabaseSchema>, scope: DraftScope) {
  const ofPod = trx.deleteFrom("drafts").where("pod_id", "=", scope.podId);
  return scope.inboxId === undefined ? ofPod : ofPod.where("inbox_id", "=", scope.inboxId);
}

async function insertAttachments(
  trx: Transaction<DatabaseSchema>,
  draftId: string,
  attachments: readonly DraftAttachmentContent[],
  firstPosition: number,
): Promise<void> {
  // One statement per attachment: each may be megabytes, and a statement's parameters are bounded.
  for (const [index, attachment] of attachments.entries()) {
    await trx
      .insertInto("draft_attachments")
      .values({ ...attachment, draft_id: draftId, position: firstPosition + index })
      .execute();
  }
}

/** The attachments' metadata of some drafts, in order, by draft. */
async function attachmentsOf(
  db: ServerDatabase | Transaction<DatabaseSchema>,
  draftIds: readonly string[],
): Promise<Map<string, DraftAttachmentMetadata[]>> {
  const byDraft = new Map<string, DraftAttachmentMetadata[]>();
  if (draftIds.length === 0) {
    return byDraft;
  }
  const rows = await db
    .selectFrom("draft_attachments")
    .select(METADATA_COLUMNS)
    .where("draft_id", "in", draftIds)
    .orderBy("draft_id")
    .orderBy("position")
    .execute();
  for (const { draft_id, ...metadata } of rows) {
    byDraft.set(draft_id, [...(byDraft.get(draft_id) ?? []), metadata]);
  }
  return byDraft;
}
