import { cappedInsert } from "../capped-insert.ts";
import type { ServerDatabase } from "../database.ts";
import type { AddressListEntryRow, AddressListEntryTable } from "../schema.ts";
import type { SqlDialect } from "../sql-dialect.ts";

/** One list: a pod's own (`inboxId` null) or an inbox's, for one direction and type. */
export interface ListScope {
  podId: string;
  inboxId: string | null;
  direction: AddressListEntryTable["direction"];
  listType: AddressListEntryTable["list_type"];
}

export interface NewListEntry {
  entry: string;
  entryType: AddressListEntryTable["entry_type"];
  reason: string | null;
  createdAt: string;
}

export type CreateListEntryResult =
  | { created: AddressListEntryRow }
  | { existing: AddressListEntryRow }
  | { limitReached: number };

/** What the lists of one inbox (its pod's and its own) say about a set of candidate entries, for one direction. */
export interface ListMatches {
  /** The entries among the candidates, by list type. */
  allowed: Set<string>;
  blocked: Set<string>;
  /** Whether the inbox's allow lists (its pod's or its own) have any entry at all. */
  hasAllowList: boolean;
}

/** Allow and block lists of addresses and domains, a pod's own and its inboxes'. */
export interface ListStore {
  /** Adds an entry; one already there is answered unchanged. Past `maxPerPod` entries in all of the pod's lists, nothing is added. */
  createEntry(scope: ListScope, entry: NewListEntry, maxPerPod: number): Promise<CreateListEntryResult>;
  findEntry(scope: ListScope, entry: string): Promise<AddressListEntryRow | null>;
  /** Up to `limit` entries after `after`, in ascending order of entry. */
  listEntries(scope: ListScope, limit: number, after: string | undefined): Promise<AddressListEntryRow[]>;
  deleteEntry(scope: ListScope, entry: string): Promise<boolean>;
  /** The entries among `candidates` in the pod's and the inbox's lists of this direction. */
  matchEntries(
    podId: string,
    inboxId: string,
    direction: ListScope["direction"],
    candidates: readonly string[],
  ): Promise<ListMatches>;
  /** The pods of the inboxes among these addresses (lowercase). */
  podsOfInboxes(addresses: readonly string[]): Promise<{ inboxId: string; podId: string }[]>;
}

/** The stored `inbox_id` of a scope: the empty string marks the pod's own list (see migration 0014). */
const inboxColumn = (scope: { inboxId: string | null }) => scope.inboxId ?? "";

/** One implementation for SQLite and PostgreSQL: the statements are the same on both. */
export class SqlListStore implements ListStore {
  readonly #db: ServerDatabase;
  readonly #dialect: SqlDialect;

  constructor(db: ServerDatabase, dialect: SqlDialect) {
    this.#db = db;
    this.#dialect = dialect;
  }

  #scoped(scope: ListScope) {
    return this.#db
      .selectFrom("address_list_entries")
      .selectAll()
      .where("pod_id", "=", scope.podId)
      .where("inbox_id", "=", inboxColumn(scope))
      .where("direction", "=", scope.direction)
      .where("list_type", "=", scope.listType);
  }

  createEntry(scope: ListScope, entry: NewListEntry, maxPerPod: number): Promise<CreateListEntryResult> {
    return this.#db.transaction().execute((trx) =>
      cappedInsert<CreateListEntryResult, CreateListEntryResult>(
        trx,
        this.#dialect,
        { table: "address_list_entries", podId: scope.podId, maxPerPod },
        {
          async existing() {
            const existing = await trx
              .selectFrom("address_list_entries")
              .selectAll()
              .where("pod_id", "=", scope.podId)
              .where("inbox_id", "=", inboxColumn(scope))
              .where("direction", "=", scope.direction)
              .where("list_type", "=", scope.listType)
              .where("entry", "=", entry.entry)
              .executeTakeFirst();
            return existing && { existing };
          },
          async insert() {
            const created = await trx
              .insertInto("address_list_entries")
              .values({
                pod_id: scope.podId,
                inbox_id: inboxColumn(scope),
                direction: scope.direction,
                list_type: scope.listType,
                entry: entry.entry,
                entry_type: entry.entryType,
                reason: entry.reason,
                created_at: entry.createdAt,
              })
              .returningAll()
              .executeTakeFirstOrThrow();
            return { created };
          },
        },
      ),
    );
  }

  async findEntry(scope: ListScope, entry: string): Promise<AddressListEntryRow | null> {
    return (await this.#scoped(scope).where("entry", "=", entry).executeTakeFirst()) ?? null;
  }

  listEntries(scope: ListScope, limit: number, after: string | undefined): Promise<AddressListEntryRow[]> {
    let query = this.#scoped(scope);
    if (after !== undefined) {
      query = query.where("entry", ">", after);
    }
    return query.orderBy("entry").limit(limit).execute();
  }

  async deleteEntry(scope: ListScope, entry: string): Promise<boolean> {
    const deleted = await this.#db
      .deleteFrom("address_list_entries")
      .where("pod_id", "=", scope.podId)
      .where("inbox_id", "=", inboxColumn(scope))
      .where("direction", "=", scope.direction)
      .where("list_type", "=", scope.listType)
      .where("entry", "=", entry)
      .executeTakeFirst();
    return Number(deleted.numDeletedRows) > 0;
  }

  async matchEntries(
    podId: string,
    inboxId: string,
    direction: ListScope["direction"],
    candidates: readonly string[],
  ): Promise<ListMatches> {
    const ofInbox = this.#db
      .selectFrom("address_list_entries")
      .where("pod_id", "=", podId)
      .where("inbox_id", "in", ["", inboxId])
      .where("direction", "=", direction);
    const [matched, anyAllowed] = await Promise.all([
      candidates.length === 0
        ? Promise.resolve([])
        : ofInbox
            .select(["list_type", "entry"])
            .where("entry", "in", [...candidates])
            .execute(),
      ofInbox.select("entry").where("list_type", "=", "allow").limit(1).executeTakeFirst(),
    ]);
    const entriesOf = (type: string) =>
      new Set(matched.filter((row) => row.list_type === type).map((row) => row.entry));
    return { allowed: entriesOf("allow"), blocked: entriesOf("block"), hasAllowList: anyAllowed !== undefined };
  }

  async podsOfInboxes(addresses: readonly string[]): Promise<{ inboxId: string; podId: string }[]> {
    if (addresses.length === 0) {
      return [];
    }
    const rows = await this.#db
      .selectFrom("inboxes")
      .select(["inbox_id", "pod_id"])
      .where("inbox_id", "in", [...addresses])
      .execute();
    return rows.map((row) => ({ inboxId: row.inbox_id, podId: row.pod_id }));
  }
}
