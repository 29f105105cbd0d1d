import { createTestControl } from "@pigeonhole/test-control";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { olderDatabase } from "../../../test/support/older-database.ts";
import { newTestDatabase } from "../../../test/support/test-database.ts";
import { expectData, inboxClient, startTestServer } from "../../../test/support/test-server.ts";
import { startWebhookReceiver } from "../../../test/support/webhook-receiver.ts";
import { sha256Hex } from "../../ids.ts";

const KEY = "key-of-a-server-without-attempts";
const INBOX = "hooked@pigeonhole.test";
const WEBHOOK = "wh_beforeAttempts";
const QUEUED = "2026-11-01T10:00:00.000Z";
const FINISHED = "2026-11-01T10:05:00.000Z";

/** A database as the server left it before attempts were kept: a webhook with a succeeded and a failed delivery. */
async function databaseBeforeAttempts(location: string, webhookUrl: string): Promise<string> {
  return olderDatabase(location, "0007_source_bcc", async (db) => {
    await sql`insert into inbox_api_keys (key_hash, pod_id, created_at) values (${sha256Hex(KEY)}, 'pod-old', ${QUEUED})`.execute(
      db,
    );
    await sql`insert into inboxes (inbox_id, pod_id, display_name, client_id, created_at, updated_at)
      values (${INBOX}, 'pod-old', null, null, ${QUEUED}, ${QUEUED})`.execute(db);
    await sql`insert into webhooks (webhook_id, pod_id, url, client_id, enabled, event_types, inbox_ids, secret,
      created_at, updated_at) values (${WEBHOOK}, 'pod-old', ${webhookUrl}, null, 1, null, null,
      'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', ${QUEUED}, ${QUEUED})`.execute(db);
    for (const [eventId, status, attempts] of [
      ["evt_succeeded", "delivered", 2],
      ["evt_failed", "failed", 9],
    ] as const) {
      await sql`insert into webhook_deliveries (webhook_id, event_id, event_type, payload, status, attempts,
        next_attempt_at_ms, last_error, last_status_code, created_at, finished_at, inbox_id)
        values (${WEBHOOK}, ${eventId}, 'message.received',
        ${JSON.stringify({ type: "event", event_type: "message.received", event_id: eventId })}, ${status}, ${attempts},
        0, null, 200, ${QUEUED}, ${FINISHED}, ${INBOX})`.execute(db);
    }
  });
}

describe("the migration that keeps delivery attempts", () => {
  it("lists deliveries made before it with ids and no attempts, redelivers them, and deletes them with the inbox", async () => {
    const hook = await startWebhookReceiver(() => 200);
    const t = await startTestServer({ database: await databaseBeforeAttempts(await newTestDatabase(), hook.url) });
    try {
      const testControl = t.server.testControl;
      if (!testControl) {
        throw new Error("Test control is off on the test server.");
      }
      const control = createTestControl({ baseUrl: t.server.inbox.url, key: testControl.key });
      const client = inboxClient(t.server.inbox.url, KEY);
      const list = async () =>
        expectData(
          await client.GET("/v0/webhooks/{webhook_id}/deliveries", { params: { path: { webhook_id: WEBHOOK } } }),
        ).deliveries;
      const before = await list();
      expect(
        before.map(({ event_id, status, attempts, next_attempt_at, updated_at }) => ({
          event_id,
          status,
          attempts,
          next_attempt_at,
          updated_at,
        })),
      ).toEqual([
        { event_id: "evt_failed", status: "failed", attempts: [], next_attempt_at: null, updated_at: FINISHED },
        { event_id: "evt_succeeded", status: "succeeded", attempts: [], next_attempt_at: null, updated_at: FINISHED },
      ]);
      const ids = before.map((delivery) => delivery.delivery_id);
      expect(new Set(ids).size).toBe(2);
      for (const id of ids) {
        expect(id).toMatch(/^dlv_[A-Za-z0-9]{16}$/);
      }

      const failed = before[0];
      const queued = await client.POST("/v0/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver", {
        params: { path: { webhook_id: WEBHOOK, delivery_id: failed?.delivery_id ?? "" } },
      });
      expect(queued.response.status).toBe(202);
      const [received] = await hook.waitFor(1);
      expect(received?.headers["webhook-id"]).toBe("evt_failed");
      await control.waitForWebhookDelivery({
        webhook_id: WEBHOOK,
        event_id: "evt_failed",
        status: "succeeded",
        timeout_ms: 5_000,
      });
      const after = await list();
      expect(after[0]).toMatchObject({ event_id: "evt_failed", status: "succeeded" });
      expect(after[0]?.attempts).toMatchObject([{ status_code: 200, error: null }]);
      expect(hook.deliveries).toHaveLength(1);

      // The deliveries, and the attempt now kept, go with their inbox.
      const deleted = await client.DELETE("/v0/inboxes/{inbox_id}", { params: { path: { inbox_id: INBOX } } });
      expect(deleted.response.status).toBe(204);
      expect(await list()).toEqual([]);
    } finally {
      await t.server.close();
      await hook.close();
    }
  });
});
