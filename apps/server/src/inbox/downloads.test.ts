import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { InboxClient, TestServer } from "../../test/support/test-server.ts";
import { expectData, startTestServer } from "../../test/support/test-server.ts";

let t: TestServer;
let stranger: InboxClient;
beforeAll(async () => {
  t = await startTestServer();
  stranger = await t.newInboxTenant();
});
afterAll(() => t.server.close());

async function newInbox(username: string, displayName?: string) {
  return expectData(await t.inbox.POST("/v0/inboxes", { body: { username, display_name: displayName } })).inbox_id;
}

async function download(client: InboxClient, inboxId: string, messageId: string, attachmentId: string) {
  const { data, response } = await client.GET(
    "/v0/inboxes/{inbox_id}/messages/{message_id}/attachments/{attachment_id}",
    {
      params: { path: { inbox_id: inboxId, message_id: messageId, attachment_id: attachmentId } },
      parseAs: "arrayBuffer",
    },
  );
  return { bytes: data === undefined ? undefined : new Uint8Array(data), response };
}

async function raw(client: InboxClient, inboxId: string, messageId: string) {
  const { data, response } = await client.GET("/v0/inboxes/{inbox_id}/messages/{message_id}/raw", {
    params: { path: { inbox_id: inboxId, message_id: messageId } },
    parseAs: "arrayBuffer",
  });
  return { source: data === undefined ? undefined : Buffer.from(data), response };
}

/** Every byte value, then a pattern of several MiB that no text encoding would keep. */
const EVERY_BYTE = Uint8Array.from({ length: 256 }, (_, index) => index);
const LARGE = Uint8Array.from({ length: 6 * 1024 * 1024 + 7 }, (_, index) => (index * 131 + (index >> 11)) & 0xff);

describe("attachment downloads", () => {
  it("answers each attachment's bytes exactly, with its type and file name, to sender and recipient", async () => {
    const from = await newInbox("files-from");
    const to = await newInbox("files-to");
    const sent = expectData(
      await t.inbox.POST("/v0/inboxes/{inbox_id}/messages", {
        params: { path: { inbox_id: from } },
        body: {
          to,
          subject: "Files",
          text: "Attached.",
          attachments: [
            { filename: "bytes.bin", content: Buffer.from(EVERY_BYTE).toString("base64") },
            {
              filename: "Überweisung März €.pdf",
              content: Buffer.from(LARGE).toString("base64"),
              content_type: "application/pdf",
            },
          ],
        },
      }),
    );
    const message = expectData(
      await t.inbox.GET("/v0/inboxes/{inbox_id}/messages/{message_id}", {
        params: { path: { inbox_id: to, message_id: sent.message_id } },
      }),
    );
    const [small, large] = message.attachments;
    if (!small || !large) {
      throw new Error("The message lost its attachments.");
    }
    for (const inbox of [from, to]) {
      const first = await download(t.inbox, inbox, sent.message_id, small.attachment_id);
      expect(first.response.status).toBe(200);
      expect(first.response.headers.get("Content-Type")).toBe("application/octet-stream");
      expect(first.response.headers.get("Content-Disposition")).toBe("attachment; filename=bytes.bin");
      expect(first.bytes).toEqual(EVERY_BYTE);

      const second = await download(t.inbox, inbox, sent.message_id, large.attachment_id);
      expect(second.response.headers.get("Content-Type")).toBe("application/pdf");
      expect(second.response.headers.get("Content-Length")).toBe(String(LARGE.length));
      expect(second.response.headers.get("Content-Disposition")).toBe(
        "attachment; filename=\"?berweisung M?rz ?.pdf\"; filename*=UTF-8''%C3%9Cberweisung%20M%C3%A4rz%20%E2%82%AC.pdf",
      );
      expect(Buffer.compare(Buffer.from(second.bytes ?? []), Buffer.from(LARGE))).toBe(0);
    }
  });

  it("serves an attachment whose content_type is not a media type as application/octet-stream, bytes intact", async () => {
    const from = await newInbox("odd-type");
    const oddTypes = ["not a type", "text/plain\nX-Injected: yes", "тип/файла"];
    const sent = expectData(
      await t.inbox.POST("/v0/inboxes/{inbox_id}/messages", {
        params: { path: { inbox_id: from } },
        body: {
          to: "someone@example.com",
          attachments: oddTypes.map((contentType, index) => ({
            filename: `odd-${index}.bin`,
            content: Buffer.from(EVERY_BYTE).toString("base64"),
            content_type: contentType,
          })),
        },
      }),
    );
    const message = expectData(
      await t.inbox.GET("/v0/inboxes/{inbox_id}/messages/{message_id}", {
        params: { path: { inbox_id: from, message_id: sent.message_id } },
      }),
    );
    // The record keeps what the sender said; only the header falls back.
    expect(message.attachments.map((attachment) => attachment.content_type)).toEqual(oddTypes);
    for (const attachment of message.attachments) {
      const { bytes, response } = await download(t.inbox, from, sent.message_id, attachment.attachment_id);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("application/octet-stream");
      expect(response.headers.get("x-injected")).toBeNull();
      expect(bytes).toEqual(EVERY_BYTE);
    }
  });

  it("answers 404 for another key's message, an unknown attachment and an attachment of another message", async () => {
    const from = await newInbox("files-private");
    const sent = expectData(
      await t.inbox.POST("/v0/inboxes/{inbox_id}/messages", {
        params: { path: { inbox_id: from } },
        body: { to: "ada@example.com", attachments: [{ filename: "a.txt", content: "YQ==" }] },
      }),
    );
    const other = expectData(
      await t.inbox.POST("/v0/inboxes/{inbox_id}/messages", {
        params: { path: { inbox_id: from } },
        body: { to: "ada@example.com" },
      }),
    );
    const message = expectData(
      await t.inbox.GET("/v0/inboxes/{inbox_id}/messages/{message_id}", {
        params: { path: { inbox_id: from, message_id: sent.message_id } },
      }),
    );
    const attachmentId = message.attachments[0]?.attachment_id ?? "";
    expect((await download(t.inbox, from, sent.message_id, attachmentId)).bytes).toEqual(new Uint8Array([97]));
    for (const [client, messageId, id] of [
      [stranger, sent.message_id, attachmentId],
      [t.inbox, sent.message_id, "att_missing"],
      [t.inbox, other.message_id, attachmentId],
    ] as const) {
      const { response } = await download(client, from, messageId, id);
      expect(response.status).toBe(404);
    }
    expect((await raw(stranger, from, sent.message_id)).response.status).toBe(404);
  });
});

/** The header section of a source, unfolded, by lower-case name. */
function headersOf(source: Buffer): Map<string, string> {
  const head = source
    .subarray(0, source.indexOf("\r\n\r\n"))
    .toString("latin1")
    .replace(/\r\n[ \t]+/g, " ");
  return new Map(
    head.split("\r\n").map((line) => {
      const colon = line.indexOf(":");
      return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()];
    }),
  );
}

describe("raw messages", () => {
  it("answers the same RFC 5322 source on every read, the recipient's copy without Bcc", async () => {
    const from = await newInbox("raw-from", "Raw Sender");
    const to = await newInbox("raw-to");
    const sent = expectData(
      await t.inbox.POST("/v0/inboxes/{inbox_id}/messages", {
        params: { path: { inbox_id: from } },
        body: {
          to,
          cc: "grace@example.com",
          bcc: ["audit@example.com"],
          subject: "Sources",
          text: "Line one\nLine two",
          html: "<p>Hello</p>",
          headers: { "X-Campaign": "raw", "In-Reply-To": "<earlier@example.com>" },
          attachments: [{ filename: "every-byte.bin", content: Buffer.from(EVERY_BYTE).toString("base64") }],
        },
      }),
    );
    const senderCopy = await raw(t.inbox, from, sent.message_id);
    expect(senderCopy.response.status).toBe(200);
    expect(senderCopy.response.headers.get("Content-Type")).toBe("message/rfc822");
    const source = senderCopy.source ?? Buffer.alloc(0);
    expect((await raw(t.inbox, from, sent.message_id)).source).toEqual(source);

    const headers = headersOf(source);
    expect(headers.get("message-id")).toBe(sent.message_id);
    expect(headers.get("from")).toBe("Raw Sender <raw-from@pigeonhole.test>");
    expect(headers.get("to")).toBe(to);
    expect(headers.get("cc")).toBe("grace@example.com");
    expect(headers.get("bcc")).toBe("audit@example.com");
    expect(headers.get("subject")).toBe("Sources");
    expect(headers.get("in-reply-to")).toBe("<earlier@example.com>");
    expect(headers.get("x-campaign")).toBe("raw");
    expect(headers.get("mime-version")).toBe("1.0");
    const message = expectData(
      await t.inbox.GET("/v0/inboxes/{inbox_id}/messages/{message_id}", {
        params: { path: { inbox_id: from, message_id: sent.message_id } },
      }),
    );
    expect(new Date(headers.get("date") ?? "").toISOString()).toBe(message.timestamp.replace(/\.\d{3}Z$/, ".000Z"));
    // Every line ends in CRLF; the body parts and the attachment are there, between the declared boundary.
    expect(source.toString("latin1").replace(/\r\n/g, "")).not.toMatch(/[\r\n]/);
    const boundary = /boundary="([^"]+)"/.exec(headers.get("content-type") ?? "")?.[1];
    expect(boundary).toBeDefined();
    const text = source.toString("latin1");
    expect(text).toContain(`--${boundary}\r\n`);
    expect(text).toContain(`--${boundary}--`);
    expect(text).toContain("Line one\r\nLine two");
    expect(text).toContain("<p>Hello</p>");
    expect(text).toContain(Buffer.from(EVERY_BYTE).toString("base64").slice(0, 60));

    const recipientCopy = (await raw(t.inbox, to, sent.message_id)).source ?? Buffer.alloc(0);
    expect(headersOf(recipientCopy).has("bcc")).toBe(false);
    expect(recipientCopy.toString("latin1")).not.toContain("audit@example.com");
    expect(recipientCopy.toString("latin1")).toBe(text.replace("Bcc: audit@example.com\r\n", ""));
    expect((await raw(t.inbox, to, sent.message_id)).source).toEqual(recipientCopy);
  });
});
