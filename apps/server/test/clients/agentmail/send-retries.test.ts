import { AgentMailError } from "agentmail";
import { describe, expect, it } from "vitest";
import { openStorage } from "../../../src/storage/open-storage.ts";
import { testControlOf } from "../../support/test-control-requests.ts";
import { newTestDatabase } from "../../support/test-database.ts";
import { startTestServer } from "../../support/test-server.ts";
import { agentMailClient, agentMailServerForFile } from "./agentmail-server.ts";

// A retried send answers the send it repeats, whatever changed since: a block entry added in between bears on new
// sends only, through the official SDK's `Idempotency-Key` and through a scheduled draft sent again.
const served = agentMailServerForFile();

const HOUR = 60 * 60 * 1000;

async function errorOf(call: Promise<unknown>) {
  const caught = await call.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(caught).toBeInstanceOf(AgentMailError);
  const { statusCode, body } = caught as AgentMailError;
  return { statusCode, code: (body as { error?: { details?: { code?: string } } }).error?.details?.code };
}

describe("a send retried with its Idempotency-Key after the recipient was blocked", () => {
  it("answers the original ids and sends nothing; a new key is refused, another body is a conflict", async () => {
    const { sdk } = await served.newPod();
    const inbox = (await sdk.inboxes.create({})).inboxId;
    const body = { to: ["ada@partner.example"], subject: "Retried", text: "Once." };
    const idempotencyKey = `retry-${crypto.randomUUID()}`;
    const first = await sdk.inboxes.messages.send(inbox, body, { idempotencyKey });
    await sdk.lists.create("send", "block", { entry: "partner.example" });

    const again = await sdk.inboxes.messages.send(inbox, body, { idempotencyKey });
    expect(again).toEqual(first);
    expect(await errorOf(sdk.inboxes.messages.send(inbox, { ...body, text: "Twice." }, { idempotencyKey }))).toEqual({
      statusCode: 409,
      code: "IDEMPOTENCY_KEY_REUSED",
    });
    expect(await errorOf(sdk.inboxes.messages.send(inbox, body, { idempotencyKey: `new-${idempotencyKey}` }))).toEqual({
      statusCode: 400,
      code: "RECIPIENT_BLOCKED",
    });
    expect((await sdk.inboxes.messages.list(inbox)).messages.map((message) => message.messageId)).toEqual([
      first.messageId,
    ]);
  });
});

describe("a scheduled draft sent already, whose instance stopped before deleting it", () => {
  it("is completed (deleted) when it falls due after its recipient was blocked, not marked failed", async () => {
    const database = await newTestDatabase();
    const { server } = await startTestServer({ database });
    // A second handle on the same database, as the instance that stopped had.
    const stopped = await openStorage(database, { poolSize: 1 });
    try {
      const sdk = agentMailClient(server, server.inbox.apiKey);
      const { podId } = await sdk.auth.me();
      if (podId === undefined) {
        throw new Error("auth.me names the key's pod.");
      }
      const from = (await sdk.inboxes.create({})).inboxId;
      const clock = await testControlOf(server).clock();
      const sendAt = new Date(Date.parse(clock.body.now) + HOUR);
      const draft = await sdk.inboxes.drafts.create(from, {
        to: ["ada@partner.example"],
        subject: "Scheduled once",
        sendAt,
        attachments: [{ filename: "a.txt", content: Buffer.from("a").toString("base64") }],
      });
      const before = await stopped.drafts.findDraft({ podId }, draft.draftId);
      const attachments = await stopped.drafts.draftAttachments(draft.draftId);
      if (!before) {
        throw new Error("The draft was not found where it was stored.");
      }
      const sent = await sdk.inboxes.drafts.send(from, draft.draftId, {});
      // The send committed and the draft was not deleted: its row is as it stood before the send.
      const { seq: _seq, claimed_by: _by, claimed_until_ms: _until, ...row } = before.draft;
      expect("created" in (await stopped.drafts.createDraft(row, attachments, 1_000))).toBe(true);
      await sdk.lists.create("send", "block", { entry: "ada@partner.example" });

      await testControlOf(server).advance(HOUR + 1_000);
      const deadline = performance.now() + 10_000;
      let status: string | undefined = "scheduled";
      while (status === "scheduled" && performance.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 25));
        status = (await stopped.drafts.findDraft({ podId }, draft.draftId))?.draft.status ?? "deleted";
      }
      expect(status).toBe("deleted");
      expect((await sdk.inboxes.messages.list(from)).messages.map((message) => message.messageId)).toEqual([
        sent.messageId,
      ]);
    } finally {
      await stopped.close();
      await server.close();
    }
  });
});
