import type { Transaction } from "kysely";
import type { ServerDatabase } from "./database.ts";
import { retryingTransaction } from "./retrying-transaction.ts";
import type { DatabaseSchema } from "./schema.ts";
import type { SqlDialect } from "./sql-dialect.ts";

/**
 * What a committed transaction stored that other parts of the server work off: events of these pods (their live
 * streams read on), webhook deliveries (the delivery worker attempts them) and recipients queued for the relay (the
 * outbound mail worker relays them).
 */
export interface Produced {
  readonly eventPods: readonly string[];
  readonly deliveries: number;
  readonly queuedMail: number;
}

/** Hears what each transaction produced, once it has committed: never of one that rolled back. */
export interface CommitAnnouncer {
  announce(produced: Produced): void;
}

/** What one transaction produces, recorded by the statements that write it, and announced once it has committed. */
export class UnitOfWork {
  readonly #eventPods = new Set<string>();
  #deliveries = 0;
  #queuedMail = 0;

  eventsStored(podId: string): void {
    this.#eventPods.add(podId);
  }

  deliveriesEnqueued(count: number): void {
    this.#deliveries += count;
  }

  mailQueued(count: number): void {
    this.#queuedMail += count;
  }

  /** Tells `announcer` what was produced, if anything; called once the transaction has committed. */
  announceTo(announcer: CommitAnnouncer): void {
    if (this.#eventPods.size > 0 || this.#deliveries > 0 || this.#queuedMail > 0) {
      announcer.announce({
        eventPods: [...this.#eventPods],
        deliveries: this.#deliveries,
        queuedMail: this.#queuedMail,
      });
    }
  }
}

const NOBODY: CommitAnnouncer = { announce: () => {} };

/**
 * The transactions of the stores whose writes others work off. Each runs as a unit of work, announced after its
 * commit to the announcer the server names (nobody until then: the CLI's key commands have no one to tell).
 */
export class UnitsOfWork {
  readonly #db: ServerDatabase;
  readonly #dialect: SqlDialect;
  #announcer = NOBODY;

  constructor(db: ServerDatabase, dialect: SqlDialect) {
    this.#db = db;
    this.#dialect = dialect;
  }

  /** From now on, `announcer` hears what each committed unit of work produced. */
  announceTo(announcer: CommitAnnouncer): void {
    this.#announcer = announcer;
  }

  /**
   * Runs `work` in one transaction, retried from the start after a transient conflict with a fresh unit of work, so
   * that only what the committed attempt produced is announced.
   */
  async run<T>(work: (trx: Transaction<DatabaseSchema>, unit: UnitOfWork) => Promise<T>): Promise<T> {
    let unit = new UnitOfWork();
    const result = await retryingTransaction(this.#db, this.#dialect, (trx) => {
      unit = new UnitOfWork();
      return work(trx, unit);
    });
    unit.announceTo(this.#announcer);
    return result;
  }

  /** Announces what a statement committed on its own produced. */
  committed(record: (unit: UnitOfWork) => void): void {
    const unit = new UnitOfWork();
    record(unit);
    unit.announceTo(this.#announcer);
  }
}
