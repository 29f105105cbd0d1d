import type { DownloadOperations } from "@pigeonhole/client-core";
import { describe, expectTypeOf, it } from "vitest";
import type { INBOX_DOWNLOADS } from "./client.js";
import { type calls, createInboxClient, type ErrorResponse, type Message, type SendMessageResponse } from "./index.js";

const inbox = createInboxClient({ apiKey: "k" });
const inbox_id = "support@pigeonhole.test";
const message_id = "<m@pigeonhole.test>";
const ATTACHMENT = "/v0/inboxes/{inbox_id}/messages/{message_id}/attachments/{attachment_id}";
const RAW = "/v0/inboxes/{inbox_id}/messages/{message_id}/raw";
const attachment = { params: { path: { inbox_id, message_id, attachment_id: "att_1" } } };
const raw = { params: { path: { inbox_id, message_id } } };
type Stream = NonNullable<Response["body"]>;

describe("the downloads the client knows", () => {
  it("are exactly the spec's operations whose success is not JSON", () => {
    expectTypeOf<(typeof INBOX_DOWNLOADS)[number]>().toEqualTypeOf<DownloadOperations<calls>>();
    expectTypeOf<DownloadOperations<calls>>().toEqualTypeOf<
      | `GET ${typeof ATTACHMENT}`
      | `GET ${typeof RAW}`
      | "GET /v0/inboxes/{inbox_id}/threads/{thread_id}/attachments/{attachment_id}"
      | "GET /v0/downloads/{token}"
      | "GET /v0/domains/{domain_id}/zone-file"
    >();
  });
});

describe("throwing style", () => {
  it("resolves a download to a Blob by default", () => {
    expectTypeOf(inbox.get(ATTACHMENT, attachment)).resolves.toEqualTypeOf<Blob>();
    expectTypeOf(inbox.get(RAW, raw)).resolves.toEqualTypeOf<Blob>();
  });

  it("follows parseAs: an ArrayBuffer, a stream of bytes or text", () => {
    expectTypeOf(
      inbox.get(ATTACHMENT, { ...attachment, parseAs: "arrayBuffer" }),
    ).resolves.toEqualTypeOf<ArrayBuffer>();
    expectTypeOf(inbox.get(ATTACHMENT, { ...attachment, parseAs: "stream" })).resolves.toEqualTypeOf<Stream>();
    expectTypeOf(inbox.get(RAW, { ...raw, parseAs: "text" })).resolves.toEqualTypeOf<string>();
    expectTypeOf(inbox.get(RAW, { ...raw, parseAs: "blob" })).resolves.toEqualTypeOf<Blob>();
    expectTypeOf<Stream>().toExtend<ReadableStream<Uint8Array>>();
  });

  it("never parses a download as JSON, and still parses every other operation as JSON only", () => {
    // @ts-expect-error a download's bytes are not JSON
    void inbox.get(RAW, { ...raw, parseAs: "json" });
    // @ts-expect-error the JSON operations parse JSON
    void inbox.get("/v0/inboxes/{inbox_id}/messages/{message_id}", { ...raw, parseAs: "blob" });
  });

  it("types the new JSON operations: label update, reply, and a delete with no body", () => {
    expectTypeOf(
      inbox.patch("/v0/inboxes/{inbox_id}/messages/{message_id}", { ...raw, body: { remove_labels: ["unread"] } }),
    ).resolves.toEqualTypeOf<Message>();
    expectTypeOf(
      inbox.post("/v0/inboxes/{inbox_id}/messages/{message_id}/reply", { ...raw, body: { text: "Thanks" } }),
    ).resolves.toEqualTypeOf<SendMessageResponse>();
    expectTypeOf(
      inbox.delete("/v0/inboxes/{inbox_id}", { params: { path: { inbox_id } } }),
    ).resolves.toEqualTypeOf<undefined>();
  });
});

describe("result style", () => {
  it("gives a download's data as a Blob by default, and the JSON error envelope", async () => {
    const { data, error } = await inbox.GET(ATTACHMENT, attachment);
    if (error) {
      expectTypeOf(error).toEqualTypeOf<ErrorResponse>();
    } else {
      expectTypeOf(data).toEqualTypeOf<Blob>();
    }
  });

  it("follows parseAs, in GET and in request()", async () => {
    expectTypeOf((await inbox.GET(RAW, { ...raw, parseAs: "text" })).data).toEqualTypeOf<string | undefined>();
    expectTypeOf((await inbox.GET(RAW, { ...raw, parseAs: "arrayBuffer" })).data).toEqualTypeOf<
      ArrayBuffer | undefined
    >();
    expectTypeOf((await inbox.GET(RAW, { ...raw, parseAs: "stream" })).data).toEqualTypeOf<Stream | undefined>();
    expectTypeOf((await inbox.request("get", ATTACHMENT, attachment)).data).toEqualTypeOf<Blob | undefined>();
    // @ts-expect-error a download's bytes are not JSON
    void inbox.GET(RAW, { ...raw, parseAs: "json" });
  });
});
