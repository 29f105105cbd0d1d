import type { Kysely } from "kysely";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { olderDatabase } from "../../../test/support/older-database.ts";
import { newTestDatabase } from "../../../test/support/test-database.ts";
import type { InboxClient } from "../../../test/support/test-server.ts";
import { expectData, inboxClient, startTestServer } from "../../../test/support/test-server.ts";
import { sha256Hex } from "../../ids.ts";

const SHARED = "<contract@partner.example>";
const SENT = "<sent-1@pigeonhole.test>";
const T1 = "2026-11-01T10:00:00.000Z";
const T2 = "2026-11-01T11:00:00.000Z";
const T3 = "2026-11-01T12:00:00.000Z";
const CONTRACT = new Uint8Array(Buffer.from("%PDF-1.4 the contract \u0000\u00ff"));
const REPORT = new Uint8Array(Buffer.from("the quarterly report"));
const RECEIVED_SOURCE = "From: sender@partner.example\r\nSubject: The contract\r\n\r\nSigned copy attached.\r\n";
const SENT_SOURCE = [
  "From: sender@pigeonhole.test",
  "To: sender@pigeonhole.test",
  "Bcc: quiet@pigeonhole.test,",
  " second-quiet@pigeonhole.test",
  `Message-ID: ${SENT}`,
  "Subject: Report",
  "",
  "The report is attached.",
  "",
].join("\r\n");

/** The pods of the older database: their keys, and the inboxes each holds. */
const PODS = {
  victim: { key: "key-of-the-victim", inboxes: ["victim@pigeonhole.test", "victim-too@pigeonhole.test"] },
  attacker: { key: "key-of-the-attacker", inboxes: ["attacker@pigeonhole.test", "sender@pigeonhole.test"] },
  quiet: { key: "key-of-the-quiet-pod", inboxes: ["quiet@pigeonhole.test"] },
} as const;

interface OldCopy {
  inbox: string;
  messageId: string;
  createdAt: string;
  text: string;
  to: readonly string[];
  bcc?: readonly string[];
  labels: readonly string[];
}

/** A message copy as an older server stored it, in a thread of its own. */
async function insertCopy(db: Kysely<unknown>, copy: OldCopy, index: number): Promise<void> {
  const thread = `thd_old${index}`;
  await sql`insert into threads (thread_id, inbox_id, subject, participants, labels, message_count, last_message_at,
    created_at, updated_at) values (${thread}, ${copy.inbox}, 'Old', '[]', ${JSON.stringify(copy.labels)}, 1,
    ${copy.createdAt}, ${copy.createdAt}, ${copy.createdAt})`.execute(db);
  await sql`insert into messages (inbox_id, message_id, thread_id, labels, sender, to_addresses, cc_addresses,
    bcc_addresses, reply_to_addresses, subject, preview, text_body, html_body, in_reply_to, reference_ids, headers,
    size, timestamp, created_at, updated_at)
    values (${copy.inbox}, ${copy.messageId}, ${thread}, ${JSON.stringify(copy.labels)}, 'sender@partner.example',
    ${JSON.stringify(copy.to)}, '[]', ${JSON.stringify(copy.bcc ?? [])}, '[]', 'Old', null, ${copy.text}, null, null,
    '[]', '{}', 20, ${copy.createdAt}, ${copy.createdAt}, ${copy.createdAt})`.execute(db);
}

/**
 * A database as the server left it when sources and attachments were shared by message id: the victim's pod received
 * a contract (and received it again in its second inbox later), then the attacker's pod received mail under the same
 * id; and a send from the attacker's pod with a Bcc recipient in a third pod, both copies stored in the same send.
 */
async function databaseWithSharedCopies(location: string): Promise<string> {
  return olderDatabase(location, "0008_delivery_attempts", async (db) => {
    for (const [podId, pod] of Object.entries(PODS)) {
      await sql`insert into inbox_api_keys (key_hash, pod_id, created_at)
        values (${sha256Hex(pod.key)}, ${podId}, ${T1})`.execute(db);
      for (const inbox of pod.inboxes) {
        await sql`insert into inboxes (inbox_id, pod_id, display_name, client_id, created_at, updated_at)
          values (${inbox}, ${podId}, null, null, ${T1}, ${T1})`.execute(db);
      }
    }
    const received = ["received", "unread"];
    const copies: OldCopy[] = [
      {
        inbox: "victim@pigeonhole.test",
        messageId: SHARED,
        createdAt: T1,
        text: "Signed copy attached.",
        to: [],
        labels: received,
      },
      {
        inbox: "victim-too@pigeonhole.test",
        messageId: SHARED,
        createdAt: T2,
        text: "Signed copy attached.",
        to: [],
        labels: received,
      },
      {
        inbox: "attacker@pigeonhole.test",
        messageId: SHARED,
        createdAt: T3,
        text: "The attacker's own text.",
        to: [],
        labels: received,
      },
      {
        inbox: "sender@pigeonhole.test",
        messageId: SENT,
        createdAt: T1,
        text: "The report is attached.",
        to: ["sender@pigeonhole.test"],
        bcc: ["quiet@pigeonhole.test", "second-quiet@pigeonhole.test"],
        labels: ["sent"],
      },
      {
        inbox: "quiet@pigeonhole.test",
        messageId: SENT,
        createdAt: T1,
        text: "The report is attached.",
        to: ["sender@pigeonhole.test"],
        labels: received,
      },
    ];
    for (const [index, copy] of copies.entries()) {
      await insertCopy(db, copy, index);
    }
    for (const [messageId, filename, content] of [
      [SHARED, "contract.pdf", CONTRACT],
      [SENT, "report.txt", REPORT],
    ] as const) {
      await sql`insert into attachments (message_id, attachment_id, position, filename, content_type, size, content)
        values (${messageId}, ${`att_${filename.replace(".", "")}`}, 0, ${filename}, 'application/octet-stream',
        ${content.length}, ${content})`.execute(db);
    }
    await sql`insert into message_sources (message_id, source, holds_bcc)
      values (${SHARED}, ${new Uint8Array(Buffer.from(RECEIVED_SOURCE))}, 0),
        (${SENT}, ${new Uint8Array(Buffer.from(SENT_SOURCE))}, 1)`.execute(db);
  });
}

async function read(client: InboxClient, inbox: string, messageId: string) {
  const message = expectData(
    await client.GET("/v0/inboxes/{inbox_id}/messages/{message_id}", {
      params: { path: { inbox_id: inbox, message_id: messageId } },
    }),
  );
  const raw = await client.GET("/v0/inboxes/{inbox_id}/messages/{message_id}/raw", {
    params: { path: { inbox_id: inbox, message_id: messageId } },
    parseAs: "text",
  });
  expect(raw.response.status).toBe(200);
  const downloads = [];
  for (const attachment of message.attachments) {
    const download = await client.GET("/v0/inboxes/{inbox_id}/messages/{message_id}/attachments/{attachment_id}", {
      params: { path: { inbox_id: inbox, message_id: messageId, attachment_id: attachment.attachment_id } },
      parseAs: "arrayBuffer",
    });
    expect(download.response.status).toBe(200);
    downloads.push(new Uint8Array(download.data ?? new ArrayBuffer(0)));
  }
  return { attachments: message.attachments.map((attachment) => attachment.filename), raw: raw.data ?? "", downloads };
}

describe("the migration that gives every copy its own source and attachments", () => {
  it("splits shared rows: the earliest copy's pod and its send keep the bytes, a later pod keeps only its record", async () => {
    const t = await startTestServer({ database: await databaseWithSharedCopies(await newTestDatabase()) });
    try {
      const url = t.server.inbox.url;
      const victim = inboxClient(url, PODS.victim.key);
      const attacker = inboxClient(url, PODS.attacker.key);
      const quiet = inboxClient(url, PODS.quiet.key);

      // The earliest copy, and a later copy in the same pod, keep the contract and the source.
      for (const inbox of PODS.victim.inboxes) {
        expect(await read(victim, inbox, SHARED)).toEqual({
          attachments: ["contract.pdf"],
          raw: RECEIVED_SOURCE,
          downloads: [CONTRACT],
        });
      }
      // The later copy in another pod gets none of it: a source built from its own record, and no attachments.
      const planted = await read(attacker, "attacker@pigeonhole.test", SHARED);
      expect(planted.attachments).toEqual([]);
      expect(planted.raw).toContain(`Message-ID: ${SHARED}\r\n`);
      expect(planted.raw).toContain("The attacker's own text.");
      expect(planted.raw).not.toContain("Signed copy attached.");

      // A send's copies in two pods, stored together: the sender keeps the Bcc field, the recipient never sees it.
      expect(await read(attacker, "sender@pigeonhole.test", SENT)).toEqual({
        attachments: ["report.txt"],
        raw: SENT_SOURCE,
        downloads: [REPORT],
      });
      expect(await read(quiet, "quiet@pigeonhole.test", SENT)).toEqual({
        attachments: ["report.txt"],
        raw: SENT_SOURCE.replace("Bcc: quiet@pigeonhole.test,\r\n second-quiet@pigeonhole.test\r\n", ""),
        downloads: [REPORT],
      });

      // Each copy's rows are its own: deleting the earliest copy's inbox leaves the other copies whole.
      const deleted = await victim.DELETE("/v0/inboxes/{inbox_id}", {
        params: { path: { inbox_id: "victim@pigeonhole.test" } },
      });
      expect(deleted.response.status).toBe(204);
      expect(await read(victim, "victim-too@pigeonhole.test", SHARED)).toEqual({
        attachments: ["contract.pdf"],
        raw: RECEIVED_SOURCE,
        downloads: [CONTRACT],
      });
    } finally {
      await t.server.close();
    }
  });
});
