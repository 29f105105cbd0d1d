import { DatabaseSync } from "node:sqlite";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { agentMailClient } from "../clients/agentmail/agentmail-server.ts";
import { newTestDatabase, testBackend } from "../support/test-database.ts";
import { startTestServer } from "../support/test-server.ts";

// The secret that signs download links is read from the database on the first JSON download. A database error then
// answers that download with a 500, and the next download reads the secret again rather than failing until a restart.

/** Runs one statement on `database` from a connection of its own, beside the server's. */
async function runStatement(database: string, statement: string): Promise<void> {
  if (testBackend() === "postgres") {
    const client = new pg.Client({ connectionString: database });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
    return;
  }
  const sqlite = new DatabaseSync(database, { timeout: 5000 });
  try {
    sqlite.exec(statement);
  } finally {
    sqlite.close();
  }
}

describe("the download links' secret after a database error", () => {
  it("is read again by the next JSON download", async () => {
    const database = await newTestDatabase();
    const { server } = await startTestServer({ database });
    try {
      const sdk = agentMailClient(server, server.inbox.apiKey);
      const inbox = (await sdk.inboxes.create({})).inboxId;
      const sent = await sdk.inboxes.messages.send(inbox, {
        to: ["someone@example.com"],
        subject: "With a file",
        attachments: [{ filename: "notes.txt", content: Buffer.from("the notes").toString("base64") }],
      });
      const attachmentId = (await sdk.inboxes.messages.get(inbox, sent.messageId)).attachments?.[0]?.attachmentId ?? "";
      const url = `${server.inbox.url}/v0/inboxes/${encodeURIComponent(inbox)}/messages/${encodeURIComponent(sent.messageId)}/attachments/${attachmentId}`;
      const download = () =>
        fetch(url, { headers: { authorization: `Bearer ${server.inbox.apiKey}`, accept: "application/json" } });

      // The table the secret lives in is away for a moment: the first read of the secret fails.
      await runStatement(database, "alter table meta rename to meta_away");
      const failed = await download();
      expect(failed.status).toBe(500);
      expect(((await failed.json()) as { error: { type: string } }).error.type).toBe("internal_error");
      await runStatement(database, "alter table meta_away rename to meta");

      const answered = await download();
      expect(answered.status).toBe(200);
      const { download_url } = (await answered.json()) as { download_url: string };
      const served = await fetch(download_url);
      expect(served.status).toBe(200);
      expect(await served.text()).toBe("the notes");
    } finally {
      await server.close();
    }
  });
});
