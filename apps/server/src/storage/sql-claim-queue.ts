import type { Transaction } from "kysely";
import type {
  ClaimableRows,
  ClaimQueue,
  ClaimRequest,
  ClaimShare,
  ClaimUpdate,
  GroupedCandidate,
  PickRows,
  QueueDepth,
  WorkTable,
} from "./claimed-rows.ts";
import {
  claimDueRows,
  nextUnclaimedDueAt,
  queueDepthOf,
  releaseClaimsOf,
  releaseEveryClaim,
  renewClaimsOf,
} from "./claimed-rows.ts";
import type { ServerDatabase } from "./database.ts";
import type { DatabaseSchema } from "./schema.ts";
import type { SqlDialect } from "./sql-dialect.ts";

/** What a claim reads back of each row at least: enough to hand the claims over in the order they fell due. */
export interface ClaimedRow {
  seq: number;
  next_attempt_at_ms: number | null;
}

const dueFirst = (a: ClaimedRow, b: ClaimedRow): number =>
  (a.next_attempt_at_ms ?? 0) - (b.next_attempt_at_ms ?? 0) || a.seq - b.seq;

/**
 * A work table's {@link ClaimQueue} on the database. A queue states only what is its own: its `rows`, the columns a
 * claim reads back (`readClaimed`), the claims made of them (`toClaims`), and, for rows in groups, how a claim with a
 * share picks them (`pickWithinShare`; without it, a claim takes the oldest, whatever their group).
 */
export abstract class SqlClaimQueue<Table extends WorkTable, Row extends ClaimedRow, Claim>
  implements ClaimQueue<Claim>
{
  protected readonly db: ServerDatabase;
  protected readonly dialect: SqlDialect;
  protected abstract readonly rows: ClaimableRows & { table: Table };

  constructor(db: ServerDatabase, dialect: SqlDialect) {
    this.db = db;
    this.dialect = dialect;
  }

  /** Runs the update that claims the rows, returning the columns the claims are made of. */
  protected abstract readClaimed(update: ClaimUpdate<Table>): Promise<Row[]>;

  /** The claims of rows just claimed, given in the order they fell due. */
  protected abstract toClaims(rows: Row[]): Promise<Claim[]>;

  /** For rows in groups: the rows a claim with a share prefers (see {@link PickRows}). */
  protected pickWithinShare?(
    trx: Transaction<DatabaseSchema>,
    claim: ClaimRequest,
    share: ClaimShare,
  ): Promise<GroupedCandidate[]>;

  async claimDue(claim: ClaimRequest): Promise<Claim[]> {
    const claimed = await claimDueRows<Table, Row>(
      this.db,
      this.dialect,
      this.rows,
      claim,
      (update) => this.readClaimed(update),
      this.#pick(claim),
    );
    return claimed.length === 0 ? [] : this.toClaims(claimed.sort(dueFirst));
  }

  renewClaims(claimant: string, seqs: readonly number[], untilMs: number): Promise<void> {
    return renewClaimsOf(this.db, this.rows, claimant, seqs, untilMs);
  }

  releaseClaims(claimant: string): Promise<void> {
    return releaseClaimsOf(this.db, this.rows, claimant);
  }

  releaseAllClaims(_nowMs: number): Promise<void> {
    return releaseEveryClaim(this.db, this.rows);
  }

  nextDueAt(nowMs: number): Promise<number | null> {
    return nextUnclaimedDueAt(this.db, this.rows, nowMs);
  }

  depth(dueMs: number): Promise<QueueDepth> {
    return queueDepthOf(this.db, this.rows, dueMs);
  }

  /** How this claim picks its rows: by the queue's preference when it has a share and the queue has one. */
  #pick(claim: ClaimRequest): PickRows | undefined {
    const { share } = claim;
    const pick = this.pickWithinShare?.bind(this);
    return share && pick && ((trx) => pick(trx, claim, share));
  }
}
