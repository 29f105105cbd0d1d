import type { Kysely } from "kysely";
import type { Migration } from "kysely/migration";
import type { ColumnTypes } from "./column-types.ts";

/**
 * Drafts of inboxes, with their attachments. A scheduled draft waits with its `send_at` in `next_attempt_at_ms` and is
 * claimed like the other work tables, so that one instance sends it, once.
 */
export const drafts = (types: ColumnTypes): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("drafts")
      .addColumn("seq", types.serial, (c) => types.serialKey(c))
      .addColumn("draft_id", "text", (c) => c.notNull().unique())
      .addColumn("pod_id", "text", (c) => c.notNull())
      .addColumn("inbox_id", "text", (c) => c.notNull())
      .addColumn("client_id", "text")
      .addColumn("labels", "text", (c) => c.notNull())
      .addColumn("reply_to", "text", (c) => c.notNull())
      .addColumn("to_addresses", "text", (c) => c.notNull())
      .addColumn("cc_addresses", "text", (c) => c.notNull())
      .addColumn("bcc_addresses", "text", (c) => c.notNull())
      .addColumn("subject", "text")
      .addColumn("text_body", "text")
      .addColumn("html_body", "text")
      .addColumn("in_reply_to", "text")
      .addColumn("reference_ids", "text", (c) => c.notNull())
      .addColumn("status", "text", (c) => c.notNull())
      .addColumn("send_at", "text")
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("updated_at", "text", (c) => c.notNull())
      .addColumn("next_attempt_at_ms", types.epochMs)
      .addColumn("claimed_by", "text")
      .addColumn("claimed_until_ms", types.epochMs)
      .execute();
    await db.schema.createIndex("drafts_by_inbox").on("drafts").columns(["inbox_id", "created_at", "seq"]).execute();
    await db.schema.createIndex("drafts_by_pod").on("drafts").columns(["pod_id", "created_at", "seq"]).execute();
    await db.schema.createIndex("drafts_by_client_id").unique().on("drafts").columns(["pod_id", "client_id"]).execute();
    await db.schema.createIndex("drafts_due").on("drafts").column("next_attempt_at_ms").execute();
    await db.schema
      .createTable("draft_attachments")
      .addColumn("draft_id", "text", (c) => c.notNull())
      .addColumn("attachment_id", "text", (c) => c.notNull())
      .addColumn("position", "integer", (c) => c.notNull())
      .addColumn("filename", "text", (c) => c.notNull())
      .addColumn("content_type", "text", (c) => c.notNull())
      .addColumn("size", "integer", (c) => c.notNull())
      .addColumn("content", types.bytes, (c) => c.notNull())
      .addPrimaryKeyConstraint("draft_attachments_pk", ["draft_id", "attachment_id"])
      .execute();
  },
});
