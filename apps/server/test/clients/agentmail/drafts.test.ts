import type { AgentMailClient } from "agentmail";
import { AgentMailError } from "agentmail";
import { describe, expect, it } from "vitest";
import type { Server } from "../../../src/index.ts";
import { testControlOf } from "../../support/test-control-requests.ts";
import { newTestDatabase } from "../../support/test-database.ts";
import { startTestServer } from "../../support/test-server.ts";
import { agentMailClient, agentMailServerForFile } from "./agentmail-server.ts";

const served = agentMailServerForFile();

const HOUR = 60 * 60 * 1000;
const base64 = (text: string) => Buffer.from(text).toString("base64");

async function newInbox(sdk: AgentMailClient = served.sdk) {
  return (await sdk.inboxes.create({})).inboxId;
}

/** The status the SDK's error carries, or a failed assertion when the call succeeded. */
async function statusOf(call: Promise<unknown>): Promise<number | undefined> {
  const error = await call.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AgentMailError);
  return (error as AgentMailError).statusCode;
}

/** The server's clock (test control's) now, in epoch milliseconds. */
async function serverNow(server: Server): Promise<number> {
  const { body } = await testControlOf(server).clock();
  return Date.parse(body.now);
}

/** Waits, on test control, for a message with `subject` in `inboxId`; answers its status (404 when none came). */
async function waitForSubject(server: Server, inboxId: string, subject: string, timeoutMs: number) {
  const answer = await testControlOf(server).get<{ message: { message_id: string; thread_id: string } }>(
    "/wait/message",
    { inbox_id: inboxId, subject, timeout_ms: timeoutMs },
  );
  return answer;
}

/** A raw call to the inbox service, for what the SDK will not send (a malformed date). */
async function rawCall(server: Server, method: string, path: string, body: unknown) {
  const response = await fetch(`${server.inbox.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${server.inbox.apiKey}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return {
    status: response.status,
    body: (await response.json()) as { error: { details: { field: string; code: string } } },
  };
}

describe("drafts through the official agentmail SDK", () => {
  it("creates, gets, lists, updates (attachments and labels too) and deletes a draft", async () => {
    const inboxId = await newInbox();
    const created = await served.sdk.inboxes.drafts.create(inboxId, {
      to: ["ada@example.com"],
      subject: "Invoice",
      text: "Hi Ada",
      labels: ["billing"],
      attachments: [{ filename: "a.txt", contentType: "text/plain", content: base64("first") }],
      clientId: "invoice-ada",
    });
    expect(created).toMatchObject({
      inboxId,
      to: ["ada@example.com"],
      subject: "Invoice",
      text: "Hi Ada",
      labels: ["billing"],
      clientId: "invoice-ada",
    });
    expect(created.draftId).toMatch(/^drf_/);
    expect(created.createdAt).toBeInstanceOf(Date);
    expect(created.attachments).toEqual([
      expect.objectContaining({ filename: "a.txt", contentType: "text/plain", size: 5 }),
    ]);

    const again = await served.sdk.inboxes.drafts.create(inboxId, { subject: "Other", clientId: "invoice-ada" });
    expect(again.draftId).toBe(created.draftId);
    expect(again.subject).toBe("Invoice");

    expect(await served.sdk.inboxes.drafts.get(inboxId, created.draftId)).toMatchObject({ draftId: created.draftId });
    const listed = await served.sdk.inboxes.drafts.list(inboxId);
    expect(listed.count).toBe(1);
    expect(listed.drafts.map((draft) => draft.draftId)).toEqual([created.draftId]);

    const first = created.attachments?.[0]?.attachmentId ?? "";
    const updated = await served.sdk.inboxes.drafts.update(inboxId, created.draftId, {
      subject: "Invoice, corrected",
      cc: ["grace@example.com"],
      html: null,
      removeAttachments: [first],
      addAttachments: [{ filename: "b.txt", content: base64("second!") }],
      addLabels: ["urgent"],
      removeLabels: ["billing"],
    });
    expect(updated).toMatchObject({
      subject: "Invoice, corrected",
      to: ["ada@example.com"],
      cc: ["grace@example.com"],
      text: "Hi Ada",
      labels: ["urgent"],
    });
    expect(updated.attachments).toEqual([
      expect.objectContaining({ filename: "b.txt", contentType: "application/octet-stream", size: 7 }),
    ]);
    expect(updated.updatedAt.getTime()).toBeGreaterThanOrEqual(created.updatedAt.getTime());

    await served.sdk.inboxes.drafts.delete(inboxId, created.draftId);
    expect(await statusOf(served.sdk.inboxes.drafts.get(inboxId, created.draftId))).toBe(404);
    expect(await statusOf(served.sdk.inboxes.drafts.delete(inboxId, created.draftId))).toBe(404);
  });

  it("sends a draft through the send path: the message is stored and delivered, the draft is gone", async () => {
    const from = await newInbox();
    const to = await newInbox();
    const draft = await served.sdk.inboxes.drafts.create(from, {
      to: [to],
      subject: "Sent from a draft",
      text: "Hello",
      labels: ["outbox"],
      attachments: [{ filename: "note.txt", contentType: "text/plain", content: base64("note") }],
    });
    const sent = await served.sdk.inboxes.drafts.send(from, draft.draftId, { addLabels: ["done"] });
    expect(sent.messageId).toMatch(/^<.+@pigeonhole\.test>$/);

    const message = await served.sdk.inboxes.messages.get(from, sent.messageId);
    expect(message).toMatchObject({ subject: "Sent from a draft", text: "Hello", threadId: sent.threadId });
    expect(message.labels).toEqual(expect.arrayContaining(["sent", "outbox", "done"]));
    expect(message.attachments?.map((attachment) => attachment.filename)).toEqual(["note.txt"]);
    const received = await served.sdk.inboxes.messages.get(to, sent.messageId);
    expect(received.labels).toContain("received");

    expect(await statusOf(served.sdk.inboxes.drafts.get(from, draft.draftId))).toBe(404);
    expect(await statusOf(served.sdk.inboxes.drafts.send(from, draft.draftId, {}))).toBe(404);
  });

  it("refuses to send a draft without recipients, and keeps it", async () => {
    const inboxId = await newInbox();
    const draft = await served.sdk.inboxes.drafts.create(inboxId, { subject: "Nobody yet" });
    expect(await statusOf(served.sdk.inboxes.drafts.send(inboxId, draft.draftId, {}))).toBe(400);
    expect((await served.sdk.inboxes.drafts.get(inboxId, draft.draftId)).subject).toBe("Nobody yet");
  });

  it("drafts a reply from in_reply_to: recipients, subject and thread come from the message", async () => {
    const asker = await newInbox();
    const helper = await newInbox();
    const question = await served.sdk.inboxes.messages.send(asker, { to: [helper], subject: "Help", text: "?" });
    const draft = await served.sdk.inboxes.drafts.create(helper, { inReplyTo: question.messageId, text: "Sure" });
    expect(draft).toMatchObject({ to: [asker], subject: "Re: Help", inReplyTo: question.messageId });
    expect(draft.references).toEqual([question.messageId]);

    const reply = await served.sdk.inboxes.drafts.send(helper, draft.draftId, {});
    const received = await served.sdk.inboxes.messages.get(asker, reply.messageId);
    expect(received).toMatchObject({ subject: "Re: Help", threadId: question.threadId });

    const missing = served.sdk.inboxes.drafts.create(helper, { inReplyTo: "<nothing@example.com>", text: "x" });
    expect(await statusOf(missing)).toBe(404);
  });

  it("lists and gets drafts pod-wide; another pod's draft ids answer 404 everywhere", async () => {
    const inboxA = await newInbox();
    const inboxB = await newInbox();
    const a = await served.sdk.inboxes.drafts.create(inboxA, { subject: "pod-wide a" });
    const b = await served.sdk.inboxes.drafts.create(inboxB, { subject: "pod-wide b" });
    const listed = await served.sdk.drafts.list({ limit: 100 });
    expect(listed.drafts.map((draft) => draft.draftId)).toEqual(expect.arrayContaining([a.draftId, b.draftId]));
    expect((await served.sdk.drafts.get(b.draftId)).subject).toBe("pod-wide b");

    const { sdk: other } = await served.newPod();
    const otherInbox = await newInbox(other);
    expect(await statusOf(other.drafts.get(a.draftId))).toBe(404);
    expect(await statusOf(other.inboxes.drafts.get(inboxA, a.draftId))).toBe(404);
    expect(await statusOf(other.inboxes.drafts.get(otherInbox, a.draftId))).toBe(404);
    expect(await statusOf(other.inboxes.drafts.update(otherInbox, a.draftId, { subject: "x" }))).toBe(404);
    expect(await statusOf(other.inboxes.drafts.send(otherInbox, a.draftId, {}))).toBe(404);
    expect(await statusOf(other.inboxes.drafts.delete(otherInbox, a.draftId))).toBe(404);
    expect((await other.drafts.list()).drafts).toEqual([]);
    // Still there, unchanged, for its own pod.
    expect((await served.sdk.drafts.get(a.draftId)).subject).toBe("pod-wide a");
  });

  it("pages drafts newest first with stable tokens", async () => {
    const inboxId = await newInbox();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push((await served.sdk.inboxes.drafts.create(inboxId, { subject: `page ${i}` })).draftId);
    }
    const first = await served.sdk.inboxes.drafts.list(inboxId, { limit: 2 });
    const second = await served.sdk.inboxes.drafts.list(inboxId, { limit: 2, pageToken: first.nextPageToken });
    const third = await served.sdk.inboxes.drafts.list(inboxId, { limit: 2, pageToken: second.nextPageToken });
    expect([...first.drafts, ...second.drafts, ...third.drafts].map((draft) => draft.draftId)).toEqual(
      [...ids].reverse(),
    );
    expect(third.nextPageToken ?? null).toBeNull();
  });

  it("refuses out-of-bounds drafts with 400s (413 for oversize attachments)", async () => {
    const inboxId = await newInbox();
    const now = await serverNow(served.server);
    const farPast = served.sdk.inboxes.drafts.create(inboxId, { sendAt: new Date(now - 24 * HOUR) });
    expect(await statusOf(farPast)).toBe(400);
    const farFuture = served.sdk.inboxes.drafts.create(inboxId, { sendAt: new Date(now + 400 * 24 * HOUR) });
    expect(await statusOf(farFuture)).toBe(400);
    const tooMany = served.sdk.inboxes.drafts.create(inboxId, {
      to: Array.from({ length: 51 }, (_, i) => `r${i}@example.com`),
    });
    expect(await statusOf(tooMany)).toBe(400);
    const manyFiles = Array.from({ length: 21 }, (_, i) => ({ filename: `f${i}.txt`, content: base64("x") }));
    expect(await statusOf(served.sdk.inboxes.drafts.create(inboxId, { attachments: manyFiles }))).toBe(400);
    const system = served.sdk.inboxes.drafts.create(inboxId, { labels: ["sent"] });
    expect(await statusOf(system)).toBe(400);

    const path = `/v0/inboxes/${encodeURIComponent(inboxId)}/drafts`;
    const badDate = await rawCall(served.server, "POST", path, { send_at: "tomorrow morning" });
    expect(badDate.status).toBe(400);
    expect(badDate.body.error.details.field).toBe("send_at");
    const noZone = await rawCall(served.server, "POST", path, { send_at: "2026-11-23T08:00:00" });
    expect(noZone.status).toBe(400);
    const forward = await rawCall(served.server, "POST", path, { forward_of: "<x@example.com>" });
    expect(forward.status).toBe(400);

    // Attachments added over several updates stay within 20 files and 10 MiB in all.
    const draft = await served.sdk.inboxes.drafts.create(inboxId, { attachments: manyFiles.slice(0, 20) });
    const one = served.sdk.inboxes.drafts.update(inboxId, draft.draftId, {
      addAttachments: [manyFiles[0] ?? { content: "" }],
    });
    expect(await statusOf(one)).toBe(400);
    const big = await served.sdk.inboxes.drafts.create(inboxId, {
      attachments: [{ filename: "big.bin", content: Buffer.alloc(6 * 1024 * 1024).toString("base64") }],
    });
    const more = served.sdk.inboxes.drafts.update(inboxId, big.draftId, {
      addAttachments: [{ filename: "big2.bin", content: Buffer.alloc(5 * 1024 * 1024).toString("base64") }],
    });
    expect(await statusOf(more)).toBe(413);
    expect((await served.sdk.inboxes.drafts.get(inboxId, big.draftId)).attachments).toHaveLength(1);
  });

  it("sends a scheduled draft when the test-control clock passes its time, not before, exactly once", async () => {
    const from = await newInbox();
    const to = await newInbox();
    const sendAt = (await serverNow(served.server)) + 2 * HOUR;
    const subject = `Scheduled ${crypto.randomUUID()}`;
    const draft = await served.sdk.inboxes.drafts.create(from, { to: [to], subject, sendAt: new Date(sendAt) });
    expect(draft.sendStatus).toBe("scheduled");
    expect(draft.sendAt?.getTime()).toBe(sendAt);

    const control = testControlOf(served.server);
    await control.advance(2 * HOUR - 1_000);
    // The worker looks as the clock moves: a second early, nothing is sent.
    expect((await waitForSubject(served.server, to, subject, 500)).status).toBe(404);
    expect((await served.sdk.inboxes.drafts.get(from, draft.draftId)).sendStatus).toBe("scheduled");

    await control.advance(2_000);
    const arrived = await waitForSubject(served.server, to, subject, 10_000);
    expect(arrived.status).toBe(200);
    // Deleted in the send's wake: once the draft is gone, no other send of it can store a message.
    const gone = async () => (await served.sdk.inboxes.drafts.list(from)).count === 0;
    for (let tries = 0; !(await gone()) && tries < 100; tries++) {
      await waitForSubject(served.server, to, subject, 50);
    }
    expect(await gone()).toBe(true);
    const sent = await served.sdk.inboxes.messages.list(from);
    expect(sent.messages.filter((message) => message.subject === subject)).toHaveLength(1);
    const received = await served.sdk.inboxes.messages.list(to);
    expect(received.messages.filter((message) => message.subject === subject)).toHaveLength(1);
  });

  it("unschedules a draft with send_at null, and a deleted scheduled draft is never sent", async () => {
    const from = await newInbox();
    const now = await serverNow(served.server);
    const kept = await served.sdk.inboxes.drafts.create(from, {
      to: ["ada@example.com"],
      subject: "kept",
      sendAt: new Date(now + HOUR),
    });
    const unscheduled = await served.sdk.inboxes.drafts.update(from, kept.draftId, { sendAt: null });
    expect(unscheduled.sendStatus ?? null).toBeNull();
    expect(unscheduled.sendAt ?? null).toBeNull();
    const dropped = await served.sdk.inboxes.drafts.create(from, {
      to: ["ada@example.com"],
      subject: "dropped",
      sendAt: new Date(now + HOUR),
    });
    await served.sdk.inboxes.drafts.delete(from, dropped.draftId);
    await testControlOf(served.server).advance(2 * HOUR);
    expect((await waitForSubject(served.server, from, "dropped", 500)).status).toBe(404);
    expect((await waitForSubject(served.server, from, "kept", 100)).status).toBe(404);
    expect((await served.sdk.inboxes.drafts.get(from, kept.draftId)).subject).toBe("kept");
  });

  it("marks a scheduled draft that cannot be sent as failed, and keeps it", async () => {
    const from = await newInbox();
    const now = await serverNow(served.server);
    const draft = await served.sdk.inboxes.drafts.create(from, { subject: "no one", sendAt: new Date(now + HOUR) });
    await testControlOf(served.server).advance(HOUR + 1_000);
    let status = (await served.sdk.inboxes.drafts.get(from, draft.draftId)).sendStatus;
    for (let tries = 0; status !== "failed" && tries < 100; tries++) {
      await waitForSubject(served.server, from, "no one", 50);
      status = (await served.sdk.inboxes.drafts.get(from, draft.draftId)).sendStatus;
    }
    expect(status).toBe("failed");
  });

  it("test-control reset wipes the pod's drafts", async () => {
    const { sdk, apiKey } = await served.newPod();
    const inboxId = await newInbox(sdk);
    const draft = await sdk.inboxes.drafts.create(inboxId, { subject: "wiped" });
    expect((await testControlOf(served.server).reset(apiKey)).status).toBeLessThan(300);
    expect(await statusOf(sdk.drafts.get(draft.draftId))).toBe(404);
  });
});

describe("a scheduled draft across a restart", () => {
  it("is sent by the server started again on the same database", async () => {
    const database = await newTestDatabase();
    const first = await startTestServer({ database });
    const sdk = agentMailClient(first.server, first.server.inbox.apiKey);
    const from = (await sdk.inboxes.create({})).inboxId;
    const to = (await sdk.inboxes.create({})).inboxId;
    const subject = `After restart ${crypto.randomUUID()}`;
    const sendAt = (await serverNow(first.server)) + HOUR;
    const draft = await sdk.inboxes.drafts.create(from, { to: [to], subject, sendAt: new Date(sendAt) });
    await first.server.close();

    const second = await startTestServer({ database });
    try {
      const again = agentMailClient(second.server, second.server.inbox.apiKey);
      expect((await again.inboxes.drafts.get(from, draft.draftId)).sendStatus).toBe("scheduled");
      await testControlOf(second.server).advance(sendAt - (await serverNow(second.server)) + 1_000);
      expect((await waitForSubject(second.server, to, subject, 10_000)).status).toBe(200);
      const received = await again.inboxes.messages.list(to);
      expect(received.messages.filter((message) => message.subject === subject)).toHaveLength(1);
    } finally {
      await second.server.close();
    }
  });
});
