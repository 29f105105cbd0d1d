import { createInboxClient } from "@pigeonhole/inbox";
import { createTestControl } from "@pigeonhole/test-control";
import { AgentMailError } from "agentmail";
import { describe, expect, it } from "vitest";
import { agentMailServerForFile } from "./agentmail-server.ts";

const served = agentMailServerForFile();

const MINUTE_MS = 60_000;

function control() {
  const { server } = served;
  if (!server.testControl) {
    throw new Error("The tests move the clock through test control, which a local server runs.");
  }
  return createTestControl({ baseUrl: server.inbox.url, key: server.testControl.key });
}

const statusOf = async (call: Promise<unknown>): Promise<number | undefined> => {
  const caught = await call.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(caught).toBeInstanceOf(AgentMailError);
  return (caught as AgentMailError).statusCode;
};

/** A message with one attachment in a new inbox of `sdk`'s pod. */
async function messageWithAttachment(sdk = served.sdk, name = "downloads") {
  const inbox = (await sdk.inboxes.create({ username: `${name}-${Math.random().toString(36).slice(2, 10)}` })).inboxId;
  const sent = await sdk.inboxes.messages.send(inbox, {
    to: ["someone@example.com"],
    subject: "With a file",
    text: "See the file.",
    attachments: [
      { filename: "notes.txt", content: Buffer.from("the notes").toString("base64"), contentType: "text/plain" },
    ],
  });
  const message = await sdk.inboxes.messages.get(inbox, sent.messageId);
  const attachmentId = message.attachments?.[0]?.attachmentId ?? "";
  return { inbox, messageId: sent.messageId, threadId: sent.threadId, attachmentId };
}

describe("downloads: bytes by default, AgentMail's signed link when JSON is asked for", () => {
  it("answers the SDK's getAttachment with a link the server serves without a key", async () => {
    const { inbox, messageId, attachmentId } = await messageWithAttachment();
    const link = await served.sdk.inboxes.messages.getAttachment(inbox, messageId, attachmentId);
    expect(link).toMatchObject({ attachmentId, filename: "notes.txt", contentType: "text/plain", size: 9 });
    expect(link.downloadUrl.startsWith(`${served.server.inbox.url}/v0/downloads/`)).toBe(true);
    const response = await fetch(link.downloadUrl);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/plain");
    expect(response.headers.get("content-disposition")).toBe("attachment; filename=notes.txt");
    expect(await response.text()).toBe("the notes");
  });

  it("keeps the bytes for requests that do not ask for JSON: no Accept, */*, a browser's", async () => {
    const { inbox, messageId, attachmentId } = await messageWithAttachment();
    const url = `${served.server.inbox.url}/v0/inboxes/${encodeURIComponent(inbox)}/messages/${encodeURIComponent(messageId)}/attachments/${attachmentId}`;
    const authorization = `Bearer ${served.server.inbox.apiKey}`;
    for (const accept of [
      undefined,
      "*/*",
      "text/html,application/xhtml+xml,*/*;q=0.8",
      "application/json;q=0.5, */*",
    ]) {
      const response = await fetch(url, { headers: { authorization, ...(accept ? { accept } : {}) } });
      expect(await response.text(), String(accept)).toBe("the notes");
    }
    // This project's own client gets the bytes.
    const ours = createInboxClient({ baseUrl: served.server.inbox.url, apiKey: served.server.inbox.apiKey ?? "" });
    const bytes = await ours.get("/v0/inboxes/{inbox_id}/messages/{message_id}/attachments/{attachment_id}", {
      params: { path: { inbox_id: inbox, message_id: messageId, attachment_id: attachmentId } },
    });
    expect(await bytes.text()).toBe("the notes");
  });

  it("answers getRaw and a thread's getAttachment the same way", async () => {
    const { inbox, messageId, threadId, attachmentId } = await messageWithAttachment();
    const raw = await served.sdk.inboxes.messages.getRaw(inbox, messageId);
    expect(raw.messageId).toBe(messageId);
    const source = await fetch(raw.downloadUrl);
    expect(source.headers.get("content-type")).toBe("message/rfc822");
    const text = await source.text();
    expect(text).toContain("Subject: With a file");
    expect(raw.size).toBe(Buffer.byteLength(text));

    const fromThread = await served.sdk.inboxes.threads.getAttachment(inbox, threadId, attachmentId);
    expect(fromThread.filename).toBe("notes.txt");
    expect(await (await fetch(fromThread.downloadUrl)).text()).toBe("the notes");
    expect(await statusOf(served.sdk.inboxes.threads.getAttachment(inbox, "thd_missing", attachmentId))).toBe(404);
  });

  it("expires a link after 15 minutes of the server's clock", async () => {
    const { inbox, messageId, attachmentId } = await messageWithAttachment();
    // Frozen, the server's time moves only when the test moves it.
    const frozen = await control().clock.set({ frozen: true });
    const link = await served.sdk.inboxes.messages.getAttachment(inbox, messageId, attachmentId);
    expect(new Date(link.expiresAt).getTime() - Date.parse(frozen.now)).toBe(15 * MINUTE_MS);
    await control().clock.advance(15 * MINUTE_MS - 1);
    expect((await fetch(link.downloadUrl)).status).toBe(200);
    await control().clock.advance(1);
    const expired = await fetch(link.downloadUrl);
    expect(expired.status).toBe(404);
    expect(((await expired.json()) as { error: { type: string } }).error.type).toBe("not_found_error");
    await control().clock.set({ frozen: false });
  });
});

describe("downloads across pods", () => {
  it("answers 404 for another pod's attachment, source and thread attachment", async () => {
    const { inbox, messageId, threadId, attachmentId } = await messageWithAttachment();
    const { sdk: other } = await served.newPod();
    expect(await statusOf(other.inboxes.messages.getAttachment(inbox, messageId, attachmentId))).toBe(404);
    expect(await statusOf(other.inboxes.messages.getRaw(inbox, messageId))).toBe(404);
    expect(await statusOf(other.inboxes.threads.getAttachment(inbox, threadId, attachmentId))).toBe(404);
    const theirs = (await other.inboxes.create({ username: "downloads-theirs" })).inboxId;
    expect(await statusOf(other.inboxes.messages.getAttachment(theirs, messageId, attachmentId))).toBe(404);
    expect(await statusOf(other.inboxes.threads.getAttachment(theirs, threadId, attachmentId))).toBe(404);
  });

  it("refuses a link that was tampered with, or bent to another pod's message", async () => {
    const mine = await messageWithAttachment();
    const { sdk: other } = await served.newPod();
    const theirs = await messageWithAttachment(other, "downloads-other");
    const link = await other.inboxes.messages.getAttachment(theirs.inbox, theirs.messageId, theirs.attachmentId);
    const [base, token = ""] = link.downloadUrl.split("/v0/downloads/");
    const [payload = "", signature = ""] = token.split(".");
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString()) as Record<string, unknown>;
    const ownPodId = (await served.sdk.inboxes.get(mine.inbox)).podId;

    const bent = { ...claims, p: ownPodId, i: mine.inbox, m: mine.messageId, a: mine.attachmentId };
    const later = { ...claims, e: Number(claims.e) + 365 * 24 * 60 * MINUTE_MS };
    const forged = (claims: object) => `${Buffer.from(JSON.stringify(claims)).toString("base64url")}.${signature}`;
    for (const tampered of [
      forged(bent),
      forged(later),
      `${payload}.${signature.slice(0, -2)}AA`,
      `${payload}.`,
      payload,
      `${payload}.${signature}.x`,
      "!!!.???",
      "a".repeat(4096),
    ]) {
      const response = await fetch(`${base}/v0/downloads/${tampered}`);
      expect(response.status, tampered).toBe(404);
    }
    expect(await (await fetch(link.downloadUrl)).text()).toBe("the notes");
  });
});
