import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { InboxClient, TestServer } from "../../../test/support/test-server.ts";
import { expectData, startTestServer } from "../../../test/support/test-server.ts";

// What the outbound worker puts on the wire, byte for byte. Postfix drops a Bcc header on its own, so a relay test
// cannot tell whether we sent one; a second server of ours receives instead, and keeps exactly the bytes it was given.

let receiving: TestServer;
let sending: TestServer;
beforeAll(async () => {
  receiving = await startTestServer({ smtpPort: 0, domains: ["example.org"] });
  sending = await startTestServer({ smtpRelay: `smtp://127.0.0.1:${receiving.server.smtp?.port}` });
});
afterAll(async () => {
  await sending.server.close();
  await receiving.server.close();
});

async function rawSource(client: InboxClient, inboxId: string, messageId: string): Promise<Buffer> {
  const { data } = await client.GET("/v0/inboxes/{inbox_id}/messages/{message_id}/raw", {
    params: { path: { inbox_id: inboxId, message_id: messageId } },
    parseAs: "arrayBuffer",
  });
  if (data === undefined) {
    throw new Error(`no source for ${messageId} in ${inboxId}`);
  }
  return Buffer.from(data);
}

/** The source with its Bcc field (and the lines that continue it) taken out of the header. */
function withoutBccField(source: Buffer): string {
  const text = source.toString("latin1");
  const end = text.indexOf("\r\n\r\n");
  const lines = text.slice(0, end).split("\r\n");
  const kept: string[] = [];
  let inBcc = false;
  for (const line of lines) {
    inBcc = /^bcc:/i.test(line) || (inBcc && /^[ \t]/.test(line));
    if (!inBcc) {
      kept.push(line);
    }
  }
  return `${kept.join("\r\n")}${text.slice(end)}`;
}

describe("mail relayed to outside addresses", () => {
  it("is the sender's stored source without its Bcc field, byte for byte", async () => {
    const from = expectData(await sending.inbox.POST("/v0/inboxes", { body: { username: "wire" } })).inbox_id;
    const to = expectData(
      await receiving.inbox.POST("/v0/inboxes", { body: { username: "ada", domain: "example.org" } }),
    ).inbox_id;
    const sent = expectData(
      await sending.inbox.POST("/v0/inboxes/{inbox_id}/messages", {
        params: { path: { inbox_id: from } },
        body: {
          to,
          bcc: ["hidden@example.net"],
          subject: "On the wire",
          text: "Plain part.",
          html: "<p>HTML part.</p>",
          attachments: [{ filename: "notes.txt", content: Buffer.from("attached").toString("base64") }],
          headers: { "X-Campaign": "wire-check" },
        },
      }),
    );

    const deadline = Date.now() + 15_000;
    let arrived = false;
    while (!arrived && Date.now() < deadline) {
      const list = expectData(
        await receiving.inbox.GET("/v0/inboxes/{inbox_id}/messages", { params: { path: { inbox_id: to } } }),
      );
      arrived = list.messages.some((message) => message.message_id === sent.message_id);
      if (!arrived) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    expect(arrived).toBe(true);

    const stored = await rawSource(sending.inbox, from, sent.message_id);
    expect(stored.toString("latin1")).toMatch(/^Bcc: hidden@example\.net\r$/im);
    const relayed = await rawSource(receiving.inbox, to, sent.message_id);
    expect(relayed.toString("latin1")).not.toContain("hidden@example.net");
    expect(relayed.toString("latin1")).toBe(withoutBccField(stored));
  });
});
