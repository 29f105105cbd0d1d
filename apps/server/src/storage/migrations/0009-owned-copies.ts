import { type Kysely, sql } from "kysely";
import type { Migration } from "kysely/migration";
import { withoutBcc } from "../../without-bcc.ts";
import type { ColumnTypes } from "./column-types.ts";

/** Sources rewritten without their Bcc field per statement batch, so a large store is never read at once. */
const BATCH = 100;

/**
 * Every stored copy owns its source and attachments: both are keyed by the inbox holding the copy and the message id
 * (and the attachment id), no longer by the message id alone, which a sender over SMTP chooses.
 *
 * Rows shared until now are split by this rule. The stored bytes of a message id belong to its earliest copy (lowest
 * `messages.seq`), to the copies in that copy's pod, and to copies in other pods stored in the same send or receive
 * as it (the same `created_at`). Each of those copies gets its own rows; a recipient's copy (no Bcc addresses) of a
 * source holding a Bcc field gets the source without that field, which reads used to strip. Every other copy gets no
 * attachments and no stored source, so its source is rebuilt from its own record, as for messages stored before
 * sources were kept: never another pod's bytes.
 */
export const ownedCopies = (types: ColumnTypes): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("message_owners")
      .addColumn("inbox_id", "text", (c) => c.notNull())
      .addColumn("message_id", "text", (c) => c.notNull())
      .addColumn("without_bcc", "integer", (c) => c.notNull())
      .addPrimaryKeyConstraint("message_owners_pk", ["inbox_id", "message_id"])
      .execute();
    await sql`insert into message_owners (inbox_id, message_id, without_bcc)
      select copy.inbox_id, copy.message_id, case when copy.bcc_addresses = '[]' then 1 else 0 end
      from messages copy
      join inboxes copy_inbox on copy_inbox.inbox_id = copy.inbox_id
      join messages earliest on earliest.message_id = copy.message_id
      join inboxes earliest_inbox on earliest_inbox.inbox_id = earliest.inbox_id
      where earliest.seq = (select min(first_copy.seq) from messages first_copy
          where first_copy.message_id = copy.message_id)
        and (copy_inbox.pod_id = earliest_inbox.pod_id or copy.created_at = earliest.created_at)`.execute(db);

    await db.schema
      .createTable("owned_attachments")
      .addColumn("inbox_id", "text", (c) => c.notNull())
      .addColumn("message_id", "text", (c) => c.notNull())
      .addColumn("attachment_id", "text", (c) => c.notNull())
      .addColumn("position", "integer", (c) => c.notNull())
      .addColumn("filename", "text", (c) => c.notNull())
      .addColumn("content_type", "text", (c) => c.notNull())
      .addColumn("size", "integer", (c) => c.notNull())
      .addColumn("content", types.bytes, (c) => c.notNull())
      .addPrimaryKeyConstraint("owned_attachments_pk", ["inbox_id", "message_id", "attachment_id"])
      .execute();
    await sql`insert into owned_attachments
        (inbox_id, message_id, attachment_id, position, filename, content_type, size, content)
      select owner.inbox_id, a.message_id, a.attachment_id, a.position, a.filename, a.content_type, a.size, a.content
      from attachments a join message_owners owner on owner.message_id = a.message_id`.execute(db);

    await db.schema
      .createTable("owned_sources")
      .addColumn("inbox_id", "text", (c) => c.notNull())
      .addColumn("message_id", "text", (c) => c.notNull())
      .addColumn("source", types.bytes, (c) => c.notNull())
      .addPrimaryKeyConstraint("owned_sources_pk", ["inbox_id", "message_id"])
      .execute();
    await sql`insert into owned_sources (inbox_id, message_id, source)
      select owner.inbox_id, s.message_id, s.source
      from message_sources s join message_owners owner on owner.message_id = s.message_id
      where s.holds_bcc = 0 or owner.without_bcc = 0`.execute(db);
    await copySourcesWithoutBcc(db);

    await db.schema.dropTable("attachments").execute();
    await db.schema.dropTable("message_sources").execute();
    await db.schema.dropTable("message_owners").execute();
    await db.schema.alterTable("owned_attachments").renameTo("attachments").execute();
    await db.schema.alterTable("owned_sources").renameTo("message_sources").execute();
  },
});

/** The recipients' copies of sources that hold a Bcc field: each gets the source without it. */
async function copySourcesWithoutBcc(db: Kysely<unknown>): Promise<void> {
  let after = { inboxId: "", messageId: "" };
  for (;;) {
    const { rows } = await sql<{ inbox_id: string; message_id: string; source: Uint8Array }>`
      select owner.inbox_id, s.message_id, s.source
      from message_sources s join message_owners owner on owner.message_id = s.message_id
      where s.holds_bcc = 1 and owner.without_bcc = 1
        and (owner.inbox_id > ${after.inboxId}
          or (owner.inbox_id = ${after.inboxId} and owner.message_id > ${after.messageId}))
      order by owner.inbox_id, owner.message_id
      limit ${BATCH}`.execute(db);
    for (const row of rows) {
      await sql`insert into owned_sources (inbox_id, message_id, source)
        values (${row.inbox_id}, ${row.message_id}, ${withoutBcc(row.source)})`.execute(db);
    }
    const last = rows.at(-1);
    if (!last || rows.length < BATCH) {
      return;
    }
    after = { inboxId: last.inbox_id, messageId: last.message_id };
  }
}
