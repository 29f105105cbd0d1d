import type { Kysely } from "kysely";
import { sql } from "kysely";
import type { Migration } from "kysely/migration";
import type { ColumnTypes } from "./column-types.ts";

/** The first schema. */
export const initial = (types: ColumnTypes): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("meta")
      .addColumn("key", "text", (c) => c.primaryKey())
      .addColumn("value", "text", (c) => c.notNull())
      .execute();

    await db.schema
      .createTable("api_keys")
      .addColumn("key_hash", "text", (c) => c.primaryKey())
      .addColumn("service", "text", (c) => c.notNull())
      .addColumn("tenant_id", "text", (c) => c.notNull())
      .addColumn("created_at", "text", (c) => c.notNull())
      .execute();

    await db.schema
      .createTable("forum_agents")
      .addColumn("agent_id", "text", (c) => c.primaryKey())
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("created_at", "text", (c) => c.notNull())
      .execute();

    await db.schema
      .createTable("inboxes")
      .addColumn("seq", types.serial, (c) => types.serialKey(c))
      .addColumn("inbox_id", "text", (c) => c.notNull().unique())
      .addColumn("pod_id", "text", (c) => c.notNull())
      .addColumn("display_name", "text")
      .addColumn("client_id", "text")
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("updated_at", "text", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("inboxes_by_pod").on("inboxes").columns(["pod_id", "created_at", "seq"]).execute();
    await db.schema
      .createIndex("inboxes_by_client_id")
      .on("inboxes")
      .columns(["pod_id", "client_id"])
      .unique()
      .where(sql.ref("client_id"), "is not", null)
      .execute();

    await db.schema
      .createTable("threads")
      .addColumn("seq", types.serial, (c) => types.serialKey(c))
      .addColumn("thread_id", "text", (c) => c.notNull().unique())
      .addColumn("inbox_id", "text", (c) => c.notNull())
      .addColumn("subject", "text")
      .addColumn("participants", "text", (c) => c.notNull())
      .addColumn("labels", "text", (c) => c.notNull())
      .addColumn("message_count", "integer", (c) => c.notNull())
      .addColumn("last_message_at", "text", (c) => c.notNull())
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("updated_at", "text", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("threads_by_inbox").on("threads").columns(["inbox_id", "created_at", "seq"]).execute();

    await db.schema
      .createTable("messages")
      .addColumn("seq", types.serial, (c) => types.serialKey(c))
      .addColumn("inbox_id", "text", (c) => c.notNull())
      .addColumn("message_id", "text", (c) => c.notNull())
      .addColumn("thread_id", "text", (c) => c.notNull())
      .addColumn("labels", "text", (c) => c.notNull())
      .addColumn("sender", "text", (c) => c.notNull())
      .addColumn("to_addresses", "text", (c) => c.notNull())
      .addColumn("cc_addresses", "text", (c) => c.notNull())
      .addColumn("bcc_addresses", "text", (c) => c.notNull())
      .addColumn("reply_to_addresses", "text", (c) => c.notNull())
      .addColumn("subject", "text")
      .addColumn("preview", "text")
      .addColumn("text_body", "text")
      .addColumn("html_body", "text")
      .addColumn("in_reply_to", "text")
      .addColumn("reference_ids", "text", (c) => c.notNull())
      .addColumn("headers", "text", (c) => c.notNull())
      .addColumn("size", "integer", (c) => c.notNull())
      .addColumn("timestamp", "text", (c) => c.notNull())
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("updated_at", "text", (c) => c.notNull())
      .addUniqueConstraint("messages_inbox_message", ["inbox_id", "message_id"])
      .execute();
    await db.schema
      .createIndex("messages_by_inbox")
      .on("messages")
      .columns(["inbox_id", "created_at", "seq"])
      .execute();
    await db.schema
      .createIndex("messages_by_thread")
      .on("messages")
      .columns(["thread_id", "created_at", "seq"])
      .execute();

    await db.schema
      .createTable("attachments")
      .addColumn("message_id", "text", (c) => c.notNull())
      .addColumn("attachment_id", "text", (c) => c.notNull())
      .addColumn("position", "integer", (c) => c.notNull())
      .addColumn("filename", "text", (c) => c.notNull())
      .addColumn("content_type", "text", (c) => c.notNull())
      .addColumn("size", "integer", (c) => c.notNull())
      .addColumn("content", types.bytes, (c) => c.notNull())
      .addPrimaryKeyConstraint("attachments_pk", ["message_id", "attachment_id"])
      .execute();

    await db.schema
      .createTable("idempotency_keys")
      .addColumn("pod_id", "text", (c) => c.notNull())
      .addColumn("idempotency_key", "text", (c) => c.notNull())
      .addColumn("request_hash", "text", (c) => c.notNull())
      .addColumn("message_id", "text", (c) => c.notNull())
      .addColumn("thread_id", "text", (c) => c.notNull())
      .addColumn("created_at_ms", types.epochMs, (c) => c.notNull())
      .addPrimaryKeyConstraint("idempotency_keys_pk", ["pod_id", "idempotency_key"])
      .execute();

    await db.schema
      .createTable("send_counts")
      .addColumn("pod_id", "text", (c) => c.notNull())
      .addColumn("day", "text", (c) => c.notNull())
      .addColumn("count", "integer", (c) => c.notNull())
      .addPrimaryKeyConstraint("send_counts_pk", ["pod_id", "day"])
      .execute();

    await db.schema
      .createTable("webhooks")
      .addColumn("seq", types.serial, (c) => types.serialKey(c))
      .addColumn("webhook_id", "text", (c) => c.notNull().unique())
      .addColumn("pod_id", "text", (c) => c.notNull())
      .addColumn("url", "text", (c) => c.notNull())
      .addColumn("client_id", "text")
      .addColumn("enabled", "integer", (c) => c.notNull())
      .addColumn("event_types", "text")
      .addColumn("inbox_ids", "text")
      .addColumn("secret", "text", (c) => c.notNull())
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("updated_at", "text", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("webhooks_by_pod").on("webhooks").columns(["pod_id", "created_at", "seq"]).execute();
    await db.schema
      .createIndex("webhooks_by_client_id")
      .on("webhooks")
      .columns(["pod_id", "client_id"])
      .unique()
      .where(sql.ref("client_id"), "is not", null)
      .execute();

    await db.schema
      .createTable("webhook_deliveries")
      .addColumn("seq", types.serial, (c) => types.serialKey(c))
      .addColumn("webhook_id", "text", (c) => c.notNull())
      .addColumn("event_id", "text", (c) => c.notNull())
      .addColumn("event_type", "text", (c) => c.notNull())
      .addColumn("payload", "text", (c) => c.notNull())
      .addColumn("status", "text", (c) => c.notNull())
      .addColumn("attempts", "integer", (c) => c.notNull())
      .addColumn("next_attempt_at_ms", types.epochMs, (c) => c.notNull())
      .addColumn("last_error", "text")
      .addColumn("last_status_code", "integer")
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("finished_at", "text")
      .execute();
    await db.schema
      .createIndex("webhook_deliveries_due")
      .on("webhook_deliveries")
      .columns(["status", "next_attempt_at_ms"])
      .execute();

    await db.schema
      .createTable("forum_communities")
      .addColumn("tenant_id", "text", (c) => c.notNull())
      .addColumn("community_id", "text", (c) => c.notNull())
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("display_name", "text", (c) => c.notNull())
      .addColumn("created_at", "text", (c) => c.notNull())
      .addPrimaryKeyConstraint("forum_communities_pk", ["tenant_id", "community_id"])
      .execute();

    await db.schema
      .createTable("forum_posts")
      .addColumn("post_id", "text", (c) => c.primaryKey())
      .addColumn("tenant_id", "text", (c) => c.notNull())
      .addColumn("community_id", "text", (c) => c.notNull())
      .addColumn("author_id", "text", (c) => c.notNull())
      .addColumn("title", "text", (c) => c.notNull())
      .addColumn("content", "text", (c) => c.notNull())
      .addColumn("url", "text")
      .addColumn("upvotes", "integer", (c) => c.notNull())
      .addColumn("downvotes", "integer", (c) => c.notNull())
      .addColumn("comment_count", "integer", (c) => c.notNull())
      .addColumn("hot_rank", types.double, (c) => c.notNull())
      .addColumn("created_at", "text", (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex("forum_posts_hot")
      .on("forum_posts")
      .expression(sql`tenant_id, hot_rank desc, post_id`)
      .execute();
    await db.schema
      .createIndex("forum_posts_new")
      .on("forum_posts")
      .expression(sql`tenant_id, created_at desc, post_id`)
      .execute();

    await db.schema
      .createTable("forum_comments")
      .addColumn("comment_id", "text", (c) => c.primaryKey())
      .addColumn("tenant_id", "text", (c) => c.notNull())
      .addColumn("post_id", "text", (c) => c.notNull())
      .addColumn("parent_id", "text")
      .addColumn("author_id", "text", (c) => c.notNull())
      .addColumn("content", "text", (c) => c.notNull())
      .addColumn("created_at", "text", (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex("forum_comments_by_post")
      .on("forum_comments")
      .columns(["post_id", "created_at", "comment_id"])
      .execute();

    await db.schema
      .createTable("forum_votes")
      .addColumn("post_id", "text", (c) => c.notNull())
      .addColumn("agent_id", "text", (c) => c.notNull())
      .addColumn("direction", "text", (c) => c.notNull())
      .addColumn("created_at", "text", (c) => c.notNull())
      .addPrimaryKeyConstraint("forum_votes_pk", ["post_id", "agent_id"])
      .execute();
  },
});
