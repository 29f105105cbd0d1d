import type { Expression, ExpressionBuilder, SqlBool, Transaction, UpdateQueryBuilder, UpdateResult } from "kysely";
import type { ServerDatabase } from "./database.ts";
import type { DatabaseSchema } from "./schema.ts";
import type { SqlDialect } from "./sql-dialect.ts";

// Work tables that the instances on a database share: a row waits while its status is one of `waiting`, is due at
// `next_attempt_at_ms`, and is held by one instance (`claimed_by`) until `claimed_until_ms`. A claim is a short lease
// that its instance renews while the attempt runs, so that an instance that stopped without handing its rows back
// (a crash) loses them within one lease.

export type WorkTable = "webhook_deliveries" | "recipient_deliveries" | "drafts";

/** A work table and the statuses in which its rows wait to be worked on. */
export type ClaimableRows = {
  [Table in WorkTable]: { table: Table; waiting: readonly DatabaseSchema[Table]["status"][] };
}[WorkTable];

/**
 * One claim of due rows. Rows fall due by the server's clock (`dueMs`), which test control may move; claims hold in
 * real time (`nowMs`, `untilMs`), so that moving that clock forward never makes a claim in flight look run out.
 */
export interface ClaimRequest {
  claimant: string;
  /** Rows with `next_attempt_at_ms` at or before this are due. */
  dueMs: number;
  /** Claims that ran out before this are free. */
  nowMs: number;
  /** The claim holds until then. */
  untilMs: number;
  limit: number;
  /** The claimant's share per group of rows (a pod's); without it rows are claimed oldest first, whatever their group. */
  share?: ClaimShare;
}

/**
 * How many rows of one group (a pod's) a claimant attempts at once at most, and how many it has in flight: a claim
 * takes no row of a group past its share, so that one group's slow rows leave room for every other group's.
 */
export interface ClaimShare {
  perGroup: number;
  /** The claimant's rows in flight, by group. */
  inFlight: ReadonlyMap<string, number>;
}

/** What a claiming worker needs of its work table. */
export interface ClaimQueue<Claim> {
  /**
   * Claims up to `limit` waiting rows that are due, oldest first. A row claimed by another instance is skipped
   * until its claim runs out (the instance stopped or crashed).
   */
  claimDue(claim: ClaimRequest): Promise<Claim[]>;
  /**
   * Extends to `untilMs`, in one statement, the claims `claimant` still holds on the rows `seqs` (its attempts in
   * flight). A row whose claim another instance took once it ran out is left to that instance.
   */
  renewClaims(claimant: string, seqs: readonly number[], untilMs: number): Promise<void>;
  /** Ends every claim of `claimant`, so that other instances take its rows at once. */
  releaseClaims(claimant: string): Promise<void>;
  /** Ends every claim (the embedded database: no other instance can hold one). */
  releaseAllClaims(nowMs: number): Promise<void>;
  /** The earliest time a row nobody holds at `nowMs` (real time) is due, or null when none waits. */
  nextDueAt(nowMs: number): Promise<number | null>;
  /** How many rows wait, and how many of those are due at `dueMs` (by the server's clock): one aggregate query. */
  depth(dueMs: number): Promise<QueueDepth>;
}

/** Rows of a work table waiting to be worked on, and how many of those are due (claimed or not). */
export interface QueueDepth {
  waiting: number;
  due: number;
}

/** The update that claims rows of `Table`, to which the caller adds the columns it reads back (`returning`). */
export type ClaimUpdate<Table extends WorkTable> = UpdateQueryBuilder<DatabaseSchema, Table, Table, UpdateResult>;

const unclaimedAt =
  (nowMs: number) =>
  (eb: ExpressionBuilder<DatabaseSchema, WorkTable>): Expression<SqlBool> =>
    eb.or([eb("claimed_until_ms", "is", null), eb("claimed_until_ms", "<", nowMs)]);

/**
 * Lists, without locking them, the waiting rows a claim prefers, in order of preference, with their group; the claim
 * takes, of those still waiting, due and free, as many as `claim.limit` and `claim.share` allow. A work table whose
 * rows belong to groups (pods) picks this way to go round them; it lists more rows than the claim takes, so that the
 * claim can pass over those another instance is claiming at the same moment.
 */
export type PickRows = (trx: Transaction<DatabaseSchema>, claim: ClaimRequest) => Promise<GroupedCandidate[]>;

/**
 * Claims up to `limit` waiting rows that are due and that nobody holds, oldest first (see `ClaimRequest`), or, with
 * `pick`, those it prefers within the claim's share, in one transaction; `read` runs the claim with what it returns.
 * The rows are selected for update, and on PostgreSQL those another instance locked are skipped, so that instances
 * claiming at once get different rows; a picked row that another instance claimed meanwhile no longer meets the
 * conditions when it is locked.
 */
export function claimDueRows<Table extends WorkTable, Row>(
  db: ServerDatabase,
  dialect: SqlDialect,
  rows: ClaimableRows & { table: Table },
  claim: ClaimRequest,
  read: (update: ClaimUpdate<Table>) => Promise<Row[]>,
  pick?: PickRows,
): Promise<Row[]> {
  // The queries touch only the columns every work table has, so they are typed against all of them at once.
  const { table, waiting }: ClaimableRows = rows;
  return db.transaction().execute(async (trx) => {
    const claimable = trx
      .selectFrom(table)
      .select("seq")
      .where("status", "in", waiting)
      .where("next_attempt_at_ms", "<=", claim.dueMs)
      .where(unclaimedAt(claim.nowMs));
    let due: { seq: number }[];
    if (pick) {
      const picked = await pick(trx, claim);
      if (picked.length === 0) {
        return [];
      }
      const locked = await dialect
        .claimRows(
          claimable.where(
            "seq",
            "in",
            picked.map((row) => row.seq),
          ),
        )
        .execute();
      // Rows locked but not taken are left as they were: their locks end with the transaction.
      const lockedSeqs = new Set(locked.map((row) => row.seq));
      due = withinShare(
        picked.filter((row) => lockedSeqs.has(row.seq)),
        claim,
      ).map((seq) => ({ seq }));
    } else {
      due = await dialect
        .claimRows(claimable.orderBy("next_attempt_at_ms").orderBy("seq").limit(dialect.rowCount(claim.limit)))
        .execute();
    }
    if (due.length === 0) {
      return [];
    }
    const update = trx
      .updateTable(table)
      .set({ claimed_by: claim.claimant, claimed_until_ms: claim.untilMs })
      .where(
        "seq",
        "in",
        due.map((row) => row.seq),
      );
    // Kysely cannot follow a generic table name; this builder updates `rows.table`, which is `Table`.
    return read(update as unknown as ClaimUpdate<Table>);
  });
}

/** A row a claim could take, and the group it belongs to. */
export interface GroupedCandidate {
  seq: number;
  group: string;
}

/**
 * Of `candidates` (in order of preference), the `seq` of those a claim takes: at most `claim.limit`, and of each
 * group only as many as its share leaves room for beside the claimant's rows in flight.
 */
export function withinShare(candidates: readonly GroupedCandidate[], claim: ClaimRequest): number[] {
  const taken = new Map(claim.share?.inFlight);
  const perGroup = claim.share?.perGroup ?? Number.POSITIVE_INFINITY;
  const seqs: number[] = [];
  for (const { seq, group } of candidates) {
    if (seqs.length >= claim.limit) {
      break;
    }
    const held = taken.get(group) ?? 0;
    if (held < perGroup) {
      taken.set(group, held + 1);
      seqs.push(seq);
    }
  }
  return seqs;
}

/** Extends `claimant`'s claims on the rows `seqs` to `untilMs`; rows it no longer holds are left alone. */
export async function renewClaimsOf(
  db: ServerDatabase,
  rows: ClaimableRows,
  claimant: string,
  seqs: readonly number[],
  untilMs: number,
): Promise<void> {
  if (seqs.length === 0) {
    return;
  }
  await db
    .updateTable(rows.table)
    .set({ claimed_until_ms: untilMs })
    .where("claimed_by", "=", claimant)
    .where("seq", "in", seqs)
    .execute();
}

/** Ends every claim of `claimant`. */
export async function releaseClaimsOf(db: ServerDatabase, rows: ClaimableRows, claimant: string): Promise<void> {
  await db
    .updateTable(rows.table)
    .set({ claimed_by: null, claimed_until_ms: null })
    .where("claimed_by", "=", claimant)
    .execute();
}

/** Ends every claim of every instance. */
export async function releaseEveryClaim(db: ServerDatabase, rows: ClaimableRows): Promise<void> {
  await db
    .updateTable(rows.table)
    .set({ claimed_by: null, claimed_until_ms: null })
    .where("claimed_by", "is not", null)
    .execute();
}

/** The earliest time a waiting row that nobody holds is due, or null when none waits. */
export async function nextUnclaimedDueAt(
  db: ServerDatabase,
  rows: ClaimableRows,
  nowMs: number,
): Promise<number | null> {
  const row = await db
    .selectFrom(rows.table)
    .select((eb) => eb.fn.min("next_attempt_at_ms").as("due"))
    .where("status", "in", rows.waiting)
    .where(unclaimedAt(nowMs))
    .executeTakeFirst();
  return row?.due ?? null;
}

/**
 * How many rows wait, and how many of those are due at `dueMs`: one aggregate over the waiting rows only, which an
 * index finds (webhook deliveries by status and next attempt; recipients by next attempt, which only waiting ones
 * have), so that it costs as much as the backlog, not the history.
 */
export async function queueDepthOf(db: ServerDatabase, rows: ClaimableRows, dueMs: number): Promise<QueueDepth> {
  const row = await db
    .selectFrom(rows.table)
    .select((eb) => [
      eb.fn.countAll<number | string | bigint>().as("waiting"),
      eb.fn
        .sum<number | string | bigint | null>(eb.case().when("next_attempt_at_ms", "<=", dueMs).then(1).else(0).end())
        .as("due"),
    ])
    .where("status", "in", rows.waiting)
    .where("next_attempt_at_ms", "is not", null)
    .executeTakeFirst();
  return { waiting: Number(row?.waiting ?? 0), due: Number(row?.due ?? 0) };
}
