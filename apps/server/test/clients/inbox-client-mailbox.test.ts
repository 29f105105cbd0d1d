import { randomBytes } from "node:crypto";
import type { InboxClient, Message, RequestEvent } from "@pigeonhole/inbox";
import { BadRequestError, createInboxClient, NotFoundError } from "@pigeonhole/inbox";
import { describe, expect, expectTypeOf, it } from "vitest";
import { serversForFile } from "./servers.ts";

// The Inbox API client's calls beyond the seed (downloads, labels, reply, deleting an inbox) against a real server
// over HTTP on 127.0.0.1, through the package's public exports only. Every test works in a tenant of its own.

const servers = serversForFile({});

async function newTenant(): Promise<InboxClient> {
  return createInboxClient({ baseUrl: servers.main.inbox.url, apiKey: await servers.main.createApiKey("inbox") });
}

let names = 0;
const uniqueName = (name: string) => `${name}-${++names}-${Math.random().toString(36).slice(2, 8)}`;

async function newInbox(client: InboxClient, name: string): Promise<string> {
  return (await client.post("/v0/inboxes", { body: { username: uniqueName(name) } })).inbox_id;
}

/** Every byte value, then random bytes: 2 MiB that no text decoding would leave intact. */
const BINARY = Buffer.concat([Buffer.from(Array.from({ length: 256 }, (_, byte) => byte)), randomBytes(2 * 1024 ** 2)]);
const BINARY_NAME = "résumé 2026 📎.bin";
const TEXT = "Grüße aus Zürich\r\nzweite Zeile\r\n";

/** Alice sends Bob a message with a binary, a text and an empty attachment; answers Bob's received copy. */
async function receivedWithAttachments(client: InboxClient) {
  const alice = await newInbox(client, "alice");
  const bob = await newInbox(client, "bob");
  const sent = await client.post("/v0/inboxes/{inbox_id}/messages", {
    params: { path: { inbox_id: alice } },
    body: {
      to: bob,
      subject: "Files",
      text: "Three files.",
      attachments: [
        { filename: BINARY_NAME, content: BINARY.toString("base64"), content_type: "application/x-custom" },
        { filename: "notes.txt", content: Buffer.from(TEXT).toString("base64"), content_type: "text/plain" },
        { filename: "empty.dat", content: "" },
      ],
    },
  });
  const message = await client.get("/v0/inboxes/{inbox_id}/messages/{message_id}", {
    params: { path: { inbox_id: bob, message_id: sent.message_id } },
  });
  const id = (filename: string) => message.attachments.find((a) => a.filename === filename)?.attachment_id ?? "";
  const path = (filename: string) => ({ inbox_id: bob, message_id: sent.message_id, attachment_id: id(filename) });
  return { alice, bob, sent, message, path };
}

const ATTACHMENT = "/v0/inboxes/{inbox_id}/messages/{message_id}/attachments/{attachment_id}";
const RAW = "/v0/inboxes/{inbox_id}/messages/{message_id}/raw";

/** All the bytes of a stream, read through a Response as a browser would. */
async function readStream(stream: ReadableStream<Uint8Array>): Promise<Buffer> {
  return Buffer.from(await new Response(stream).arrayBuffer());
}

describe("downloads", () => {
  it("resolves an attachment to a Blob by default, byte for byte, typed by its content type", async () => {
    const client = await newTenant();
    const { path } = await receivedWithAttachments(client);

    const blob = await client.get(ATTACHMENT, { params: { path: path(BINARY_NAME) } });
    expectTypeOf(blob).toEqualTypeOf<Blob>();
    expect(blob).toBeInstanceOf(Blob);
    expect(blob.type).toBe("application/x-custom");
    expect(Buffer.from(await blob.arrayBuffer()).equals(BINARY)).toBe(true);
  });

  it("reads an attachment as an ArrayBuffer, a stream or text with parseAs", async () => {
    const client = await newTenant();
    const { path } = await receivedWithAttachments(client);
    const params = { path: path(BINARY_NAME) };

    const buffer = await client.get(ATTACHMENT, { params, parseAs: "arrayBuffer" });
    expect(buffer).toBeInstanceOf(ArrayBuffer);
    expect(Buffer.from(buffer).equals(BINARY)).toBe(true);

    const stream = await client.get(ATTACHMENT, { params, parseAs: "stream" });
    expect((await readStream(stream)).equals(BINARY)).toBe(true);

    const text = await client.get(ATTACHMENT, { params: { path: path("notes.txt") }, parseAs: "text" });
    expect(text).toBe(TEXT);
  });

  it("reads an empty attachment as an empty value of the kind asked for, not as nothing", async () => {
    const client = await newTenant();
    const { path } = await receivedWithAttachments(client);
    const params = { path: path("empty.dat") };

    const blob = await client.get(ATTACHMENT, { params });
    expect(blob).toBeInstanceOf(Blob);
    expect(blob.size).toBe(0);
    expect((await client.get(ATTACHMENT, { params, parseAs: "arrayBuffer" })).byteLength).toBe(0);
    expect(await client.get(ATTACHMENT, { params, parseAs: "text" })).toBe("");
    expect((await readStream(await client.get(ATTACHMENT, { params, parseAs: "stream" }))).length).toBe(0);
    const { data } = await client.GET(ATTACHMENT, { params });
    expect(data?.size).toBe(0);
  });

  it("gives the result style the Blob and the response, whose Content-Disposition names the file in UTF-8", async () => {
    const client = await newTenant();
    const { path } = await receivedWithAttachments(client);

    const { data, error, response } = await client.GET(ATTACHMENT, { params: { path: path(BINARY_NAME) } });
    expect(error).toBeUndefined();
    expect(data).toBeInstanceOf(Blob);
    expect(Buffer.from((await data?.arrayBuffer()) ?? new ArrayBuffer(0)).equals(BINARY)).toBe(true);
    const disposition = response.headers.get("content-disposition") ?? "";
    expect(disposition).toMatch(/^attachment;/);
    expect(disposition).toContain(`filename*=UTF-8''${encodeURIComponent(BINARY_NAME)}`);

    const text = await client.request("get", ATTACHMENT, { params: { path: path("notes.txt") }, parseAs: "text" });
    expect(text.data).toBe(TEXT);
  });

  it("downloads a message's source as a Blob or text, the same bytes either way", async () => {
    const client = await newTenant();
    const { bob, sent } = await receivedWithAttachments(client);
    const params = { path: { inbox_id: bob, message_id: sent.message_id } };

    const blob = await client.get(RAW, { params });
    expect(blob.type).toMatch(/^message\/rfc822/);
    const source = await client.get(RAW, { params, parseAs: "text" });
    expect(Buffer.from(await blob.arrayBuffer()).equals(Buffer.from(source))).toBe(true);
    expect(source).toMatch(/^Subject: Files\r$/m);
    expect(source).toContain(`Message-ID: ${sent.message_id}`);
    // The binary attachment travels inside the source as base64 of the same bytes.
    expect(source.replaceAll(/\r\n/g, "")).toContain(BINARY.subarray(0, 3000).toString("base64").slice(0, 3000));
  });

  it("turns a download's JSON error into the typed error classes, in both styles", async () => {
    const client = await newTenant();
    const { path } = await receivedWithAttachments(client);
    const missing = { path: { ...path(BINARY_NAME), attachment_id: "att_missing" } };

    await expect(client.get(ATTACHMENT, { params: missing })).rejects.toBeInstanceOf(NotFoundError);
    const { data, error, response } = await client.GET(ATTACHMENT, { params: missing });
    expect(data).toBeUndefined();
    expect(response.status).toBe(404);
    expect(error?.error.details.code).toBe("NOT_FOUND");

    // Another tenant's message is a 404 too, for the attachment and for the source.
    const stranger = await newTenant();
    await expect(stranger.get(ATTACHMENT, { params: { path: path(BINARY_NAME) } })).rejects.toBeInstanceOf(
      NotFoundError,
    );
    const { inbox_id, message_id } = path(BINARY_NAME);
    await expect(stranger.get(RAW, { params: { path: { inbox_id, message_id } } })).rejects.toBeInstanceOf(
      NotFoundError,
    );
  });
});

describe("labels", () => {
  it("marks a received message read, filters lists by labels, and refuses system labels", async () => {
    const client = await newTenant();
    const { bob, sent } = await receivedWithAttachments(client);
    const path = { inbox_id: bob, message_id: sent.message_id };

    const unread = await client.get("/v0/inboxes/{inbox_id}/messages", {
      params: { path: { inbox_id: bob }, query: { labels: ["received", "unread"] } },
    });
    expect(unread.messages.map((m) => m.message_id)).toEqual([sent.message_id]);

    const read = await client.patch("/v0/inboxes/{inbox_id}/messages/{message_id}", {
      params: { path },
      body: { add_labels: ["important"], remove_labels: ["unread"] },
    });
    expectTypeOf(read).toEqualTypeOf<Message>();
    expect([...read.labels].sort()).toEqual(["important", "received"]);

    const stillUnread = await client.get("/v0/inboxes/{inbox_id}/messages", {
      params: { path: { inbox_id: bob }, query: { labels: ["unread"] } },
    });
    expect(stillUnread.messages).toEqual([]);
    const threads = await client.get("/v0/inboxes/{inbox_id}/threads", {
      params: { path: { inbox_id: bob }, query: { labels: ["important"] } },
    });
    expect(threads.threads.map((t) => t.thread_id)).toEqual([read.thread_id]);

    const refused = client.patch("/v0/inboxes/{inbox_id}/messages/{message_id}", {
      params: { path },
      body: { remove_labels: ["received"] },
    });
    await expect(refused).rejects.toBeInstanceOf(BadRequestError);
    await expect(refused).rejects.toMatchObject({ code: "SYSTEM_LABEL" });
  });
});

describe("reply", () => {
  it("replies into the thread with an automatic Idempotency-Key, and a repeated key sends once", async () => {
    const client = await newTenant();
    const { alice, bob, sent } = await receivedWithAttachments(client);
    const keys: (string | null)[] = [];
    const onRequest = ({ request }: RequestEvent) => keys.push(request.headers.get("idempotency-key"));
    const path = { inbox_id: bob, message_id: sent.message_id };

    const reply = await client.post("/v0/inboxes/{inbox_id}/messages/{message_id}/reply", {
      params: { path },
      body: { text: "Got them, thanks." },
      onRequest,
    });
    expect(keys).toEqual([expect.stringMatching(/^[0-9a-f-]{32,36}$/)]);
    expect(reply.thread_id).toBe(
      (await client.get("/v0/inboxes/{inbox_id}/messages/{message_id}", { params: { path } })).thread_id,
    );

    const once = { params: { path }, body: { text: "Once only." }, idempotencyKey: uniqueName("reply") };
    const first = await client.post("/v0/inboxes/{inbox_id}/messages/{message_id}/reply", once);
    const again = await client.post("/v0/inboxes/{inbox_id}/messages/{message_id}/reply", once);
    expect(again).toEqual(first);

    const atAlice = await client.get("/v0/inboxes/{inbox_id}/messages", { params: { path: { inbox_id: alice } } });
    const replies = atAlice.messages.filter((m) => m.in_reply_to === sent.message_id);
    expect(replies.map((m) => m.subject)).toEqual(["Re: Files", "Re: Files"]);
  });
});

describe("deleting an inbox", () => {
  it("resolves to undefined on the 204, in both styles, and the inbox is gone", async () => {
    const client = await newTenant();
    const first = await newInbox(client, "temp");
    const second = await newInbox(client, "temp");

    const deleted = await client.delete("/v0/inboxes/{inbox_id}", { params: { path: { inbox_id: first } } });
    expectTypeOf(deleted).toEqualTypeOf<undefined>();
    expect(deleted).toBeUndefined();
    await expect(
      client.get("/v0/inboxes/{inbox_id}", { params: { path: { inbox_id: first } } }),
    ).rejects.toBeInstanceOf(NotFoundError);

    const result = await client.DELETE("/v0/inboxes/{inbox_id}", { params: { path: { inbox_id: second } } });
    expect(result.response.status).toBe(204);
    expect(result.data).toBeUndefined();
    expect(result.error).toBeUndefined();
    await expect(
      client.delete("/v0/inboxes/{inbox_id}", { params: { path: { inbox_id: second } } }),
    ).rejects.toBeInstanceOf(NotFoundError);
  });
});
