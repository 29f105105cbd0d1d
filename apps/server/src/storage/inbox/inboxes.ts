import type { Inbox } from "@pigeonhole/inbox-types";
import type { ServerDatabase } from "../database.ts";
import { PreparedQuery } from "../prepared-query.ts";
import type { PageRequest, Positioned } from "./paging.ts";
import { cursorOf, newestFirst } from "./paging.ts";
import { toInbox } from "./records.ts";

export interface NewInbox {
  inboxId: string;
  podId: string;
  displayName: string | null;
  clientId: string | null;
  createdAt: string;
}

export type CreateInboxResult = { created: Inbox } | { existing: Inbox } | { addressTaken: true };

const byClientId = new PreparedQuery((db, p: { podId: string; clientId: string }) =>
  db.selectFrom("inboxes").selectAll().where("pod_id", "=", p.podId).where("client_id", "=", p.clientId),
);

const byAddress = new PreparedQuery((db, p: { inboxId: string }) =>
  db.selectFrom("inboxes").select("seq").where("inbox_id", "=", p.inboxId),
);

const insertInbox = new PreparedQuery((db, p: NewInbox) =>
  db
    .insertInto("inboxes")
    .values({
      inbox_id: p.inboxId,
      pod_id: p.podId,
      display_name: p.displayName,
      client_id: p.clientId,
      created_at: p.createdAt,
      updated_at: p.createdAt,
    })
    .returningAll(),
);

const ownInbox = new PreparedQuery((db, p: { podId: string; inboxId: string }) =>
  db.selectFrom("inboxes").selectAll().where("pod_id", "=", p.podId).where("inbox_id", "=", p.inboxId),
);

/** Creates an inbox unless the tenant already has one with this `client_id`, or the address is taken. */
export function createInbox(db: ServerDatabase, inbox: NewInbox): Promise<CreateInboxResult> {
  return db.transaction().execute(async (trx) => {
    if (inbox.clientId !== null) {
      const existing = await byClientId.first(trx, { podId: inbox.podId, clientId: inbox.clientId });
      if (existing) {
        return { existing: toInbox(existing) };
      }
    }
    if (await byAddress.first(trx, { inboxId: inbox.inboxId })) {
      return { addressTaken: true as const };
    }
    const [row] = await insertInbox.rows(trx, inbox);
    if (!row) {
      throw new Error(`The inbox ${inbox.inboxId} was not stored.`);
    }
    return { created: toInbox(row) };
  });
}

export async function findInbox(db: ServerDatabase, podId: string, inboxId: string): Promise<Inbox | null> {
  const row = await ownInbox.first(db, { podId, inboxId });
  return row ? toInbox(row) : null;
}

const newestInboxes = newestFirst("inboxes", "pod_id");

export async function listInboxes(db: ServerDatabase, podId: string, page: PageRequest): Promise<Positioned<Inbox>[]> {
  const rows = await newestInboxes(db, podId, page);
  return rows.map((row) => ({ item: toInbox(row), cursor: cursorOf(row) }));
}
