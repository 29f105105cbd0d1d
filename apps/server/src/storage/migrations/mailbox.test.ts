import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { olderDatabase } from "../../../test/support/older-database.ts";
import { newTestDatabase } from "../../../test/support/test-database.ts";
import { inboxClient, startTestServer } from "../../../test/support/test-server.ts";
import { sha256Hex } from "../../ids.ts";

const KEY = "key-of-an-older-server";
const INBOX = "old@pigeonhole.test";
const MESSAGE = "<old-1@pigeonhole.test>";
const AT = "2026-11-01T10:00:00.000Z";

/** A database as the server left it before sources were kept: one received message with an attachment. */
async function databaseBeforeSources(location: string): Promise<string> {
  return olderDatabase(location, "0003_one_forum", async (db) => {
    await sql`insert into inbox_api_keys (key_hash, pod_id, created_at) values (${sha256Hex(KEY)}, 'pod-old', ${AT})`.execute(
      db,
    );
    await sql`insert into inboxes (inbox_id, pod_id, display_name, client_id, created_at, updated_at)
      values (${INBOX}, 'pod-old', null, null, ${AT}, ${AT})`.execute(db);
    await sql`insert into threads (thread_id, inbox_id, subject, participants, labels, message_count, last_message_at,
      created_at, updated_at) values ('thd_old', ${INBOX}, 'Old', '[]', '["received"]', 1, ${AT}, ${AT}, ${AT})`.execute(
      db,
    );
    await sql`insert into messages (inbox_id, message_id, thread_id, labels, sender, to_addresses, cc_addresses,
      bcc_addresses, reply_to_addresses, subject, preview, text_body, html_body, in_reply_to, reference_ids, headers,
      size, timestamp, created_at, updated_at)
      values (${INBOX}, ${MESSAGE}, 'thd_old', '["received"]', 'ada@example.com', ${JSON.stringify([INBOX])}, '[]', '[]',
      '[]', 'Old', 'Before', 'Before sources.', null, null, '[]', '{}', 20, ${AT}, ${AT}, ${AT})`.execute(db);
    await sql`insert into attachments (message_id, attachment_id, position, filename, content_type, size, content)
      values (${MESSAGE}, 'att_old', 0, 'old.bin', 'application/octet-stream', 3, ${new Uint8Array([0, 255, 10])})`.execute(
      db,
    );
    await sql`insert into webhook_deliveries (webhook_id, event_id, event_type, payload, status, attempts,
      next_attempt_at_ms, created_at) values ('wh_gone', 'evt_old', 'message.received',
      ${JSON.stringify({ type: "event", event_type: "message.received", message: { inbox_id: INBOX } })}, 'pending', 0, 0,
      ${AT})`.execute(db);
  });
}

describe("the migration that keeps sources", () => {
  it("answers a message stored before it with a source built from its fields, the same on every read", async () => {
    const t = await startTestServer({ database: await databaseBeforeSources(await newTestDatabase()) });
    try {
      const client = inboxClient(t.server.inbox.url, KEY);
      const read = async () => {
        const { data, response } = await client.GET("/v0/inboxes/{inbox_id}/messages/{message_id}/raw", {
          params: { path: { inbox_id: INBOX, message_id: MESSAGE } },
          parseAs: "text",
        });
        expect(response.status).toBe(200);
        return data ?? "";
      };
      const source = await read();
      expect(await read()).toBe(source);
      expect(source).toContain(`Message-ID: ${MESSAGE}\r\n`);
      expect(source).toContain("From: ada@example.com\r\n");
      expect(source).toContain("Before sources.");
      expect(source).toContain(`${Buffer.from([0, 255, 10]).toString("base64")}\r\n`);
      // An inbox of the older schema, its delivery included, is deleted as any other.
      const deleted = await client.DELETE("/v0/inboxes/{inbox_id}", { params: { path: { inbox_id: INBOX } } });
      expect(deleted.response.status).toBe(204);
    } finally {
      await t.server.close();
    }
  });
});
