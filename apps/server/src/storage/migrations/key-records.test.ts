import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { olderDatabase } from "../../../test/support/older-database.ts";
import { newTestDatabase } from "../../../test/support/test-database.ts";
import { sha256Hex } from "../../ids.ts";
import { startServer } from "../../server.ts";
import { openStorage } from "../open-storage.ts";

const CREATED = "2026-11-01T10:00:00.000Z";
const OWN_KEY = "key-created-on-purpose";

/** A database as a server left it before keys had ids and kinds: the default development keys and a created key. */
async function databaseBeforeKeyRecords(location: string): Promise<string> {
  return olderDatabase(location, "0008_delivery_attempts", async (db) => {
    for (const [key, pod] of [
      ["pigeonhole-inbox-dev", "pod-dev"],
      [OWN_KEY, "pod-own"],
    ] as const) {
      await sql`insert into inbox_api_keys (key_hash, pod_id, created_at) values (${sha256Hex(key)}, ${pod}, ${CREATED})`.execute(
        db,
      );
    }
    await sql`insert into forum_agents (agent_id, name, description, key_hash, created_at)
      values ('agent-dev', 'pigeonhole-dev', null, ${sha256Hex("pigeonhole-forum-dev")}, ${CREATED})`.execute(db);
  });
}

describe("the migration that gives keys ids and marks development keys", () => {
  it("marks the default development keys an older server registered, so that --no-dev-keys removes them", async () => {
    const database = await databaseBeforeKeyRecords(await newTestDatabase());
    const storage = await openStorage(database, { poolSize: 1 });
    try {
      expect(await storage.keys.listKeys()).toEqual([
        {
          keyId: `key_${sha256Hex("pigeonhole-inbox-dev").slice(0, 16)}`,
          service: "inbox",
          podId: "pod-dev",
          agentName: null,
          createdAt: CREATED,
          dev: true,
        },
        expect.objectContaining({ keyId: `key_${sha256Hex(OWN_KEY).slice(0, 16)}`, podId: "pod-own", dev: false }),
        expect.objectContaining({ service: "forum", agentName: "pigeonhole-dev", dev: true }),
      ]);
    } finally {
      await storage.close();
    }
    const server = await startServer({ database, inboxPort: 0, forumPort: 0, logger: false, devKeys: false });
    try {
      const status = async (url: string, key: string) =>
        (await fetch(url, { headers: { Authorization: `Bearer ${key}` } })).status;
      expect(await status(`${server.inbox.url}/v0/inboxes`, "pigeonhole-inbox-dev")).toBe(401);
      expect(await status(`${server.forum.url}/api/v1/agents/me`, "pigeonhole-forum-dev")).toBe(401);
      expect(await status(`${server.inbox.url}/v0/inboxes`, OWN_KEY)).toBe(200);
    } finally {
      await server.close();
    }
  });
});
