// The operations that extend the seed (`DECISIONS.md`, "Inbox service, beyond the seed"), each checked against the
// bundle (`dist/openapi.json`; run `pnpm bundle` first): downloads, labels, reply and deleting an inbox.

import { type Json, type JsonObject, loadBundle, refOf } from "@pigeonhole/spec-testing/bundle";
import { describe, expect, it } from "vitest";

const { arr, obj, spec, str } = loadBundle(new URL("../dist/openapi.json", import.meta.url));

const schema = (name: string): JsonObject => obj(spec, "components", "schemas", name);
const property = (schemaName: string, name: string): JsonObject => obj(schema(schemaName), "properties", name);
const operation = (path: string, method: string): JsonObject => obj(spec, "paths", path, method);
const ref = (name: string): string => `#/components/schemas/${name}`;
const responseRef = (op: JsonObject, status: string): string | undefined => refOf(obj(op, "responses")[status]);
const parametersOf = (path: string, op: JsonObject): JsonObject[] => {
  const pathLevel = obj(spec, "paths", path).parameters;
  const all: Json[] = [
    ...(Array.isArray(pathLevel) ? pathLevel : []),
    ...(Array.isArray(op.parameters) ? op.parameters : []),
  ];
  return all.map((parameter) => obj(parameter));
};
const overview = (): string => str(spec, "info", "description");

const INBOX = "/v0/inboxes/{inbox_id}";
const MESSAGES = "/v0/inboxes/{inbox_id}/messages";
const MESSAGE = "/v0/inboxes/{inbox_id}/messages/{message_id}";
const THREADS = "/v0/inboxes/{inbox_id}/threads";
const ATTACHMENT = "/v0/inboxes/{inbox_id}/messages/{message_id}/attachments/{attachment_id}";
const RAW = "/v0/inboxes/{inbox_id}/messages/{message_id}/raw";
const REPLY = "/v0/inboxes/{inbox_id}/messages/{message_id}/reply";

describe("downloads", () => {
  it("Get Attachment is GET .../attachments/{attachment_id} under the message, with the three ids in the path", () => {
    const op = operation(ATTACHMENT, "get");
    expect(op.operationId).toBe("getAttachment");
    expect(op.requestBody).toBeUndefined();
    expect(parametersOf(ATTACHMENT, op).map((p) => `${p.in}:${p.name}:${p.required}`)).toEqual([
      "path:inbox_id:true",
      "path:message_id:true",
      "path:attachment_id:true",
    ]);
    expect(str(obj(spec, "components", "parameters", "AttachmentId"), "description")).toContain("404");
  });

  it("Get Attachment answers the bytes, typed by the attachment's content_type, named by Content-Disposition", () => {
    const op = operation(ATTACHMENT, "get");
    const ok = obj(op, "responses", "200");
    // Bytes by default; AgentMail's JSON (a signed link) to a request that asks for JSON.
    expect(Object.keys(obj(ok, "content"))).toEqual(["application/octet-stream", "application/json"]);
    expect(obj(ok, "content", "application/octet-stream", "schema")).toMatchObject({
      type: "string",
      format: "binary",
    });
    expect(str(op, "description")).toContain("`content_type` as `Content-Type`");
    const disposition = obj(ok, "headers", "Content-Disposition");
    expect(str(disposition, "example")).toMatch(/^attachment; filename=("[^"]+"|[^";\s]+)$/);
    expect(str(disposition, "description")).toContain("filename*=UTF-8''");
    expect(str(op, "description")).toMatch(/not JSON/);
  });

  it("Get Raw Message is GET .../raw and answers the RFC 5322 source as message/rfc822, as received", () => {
    const op = operation(RAW, "get");
    expect(op.operationId).toBe("getRawMessage");
    expect(op.requestBody).toBeUndefined();
    const media = obj(op, "responses", "200", "content", "message/rfc822");
    expect(obj(media, "schema")).toMatchObject({ type: "string", format: "binary" });
    for (const example of Object.values(obj(media, "examples"))) {
      const source = str(example, "value");
      // Headers, an empty line, the body; every line ends in CRLF.
      expect(source).toMatch(/^(?:[A-Za-z-]+: [^\r\n]*\r\n)+\r\n/);
      expect(source.replaceAll("\r\n", "")).not.toMatch(/[\r\n]/);
    }
    expect(str(op, "description")).toContain("exactly the bytes that arrived");
  });
});

describe("labels", () => {
  it("Update Message is PATCH on the message with add_labels and remove_labels, and answers the Message", () => {
    const op = operation(MESSAGE, "patch");
    expect(op.operationId).toBe("updateMessage");
    expect(obj(op, "requestBody").required).toBe(true);
    expect(refOf(obj(op, "requestBody", "content", "application/json").schema)).toBe(ref("UpdateMessageRequest"));
    const body = schema("UpdateMessageRequest");
    expect(body.required).toBeUndefined();
    expect(body.additionalProperties).toBe(false);
    expect(Object.keys(obj(body, "properties")).sort()).toEqual(["add_labels", "remove_labels"]);
    for (const field of ["add_labels", "remove_labels"]) {
      expect(property("UpdateMessageRequest", field), field).toMatchObject({
        type: "array",
        maxItems: 20,
        items: { $ref: ref("Label") },
      });
    }
    expect(refOf(obj(op, "responses", "200", "content", "application/json").schema)).toBe(ref("Message"));
  });

  it("a label is 1 to 64 characters, as Send Message's labels are", () => {
    expect(schema("Label")).toMatchObject({ type: "string", minLength: 1, maxLength: 64 });
    expect(obj(property("SendMessageRequest", "labels"), "items")).toMatchObject({ minLength: 1, maxLength: 64 });
  });

  it("sent and received are system labels: changing them is a 400 SYSTEM_LABEL, documented once", () => {
    const text = str(schema("UpdateMessageRequest"), "description");
    expect(text).toContain("`sent`");
    expect(text).toContain("`received`");
    expect(text).toContain("`SYSTEM_LABEL`");
    expect(arr(property("ErrorDetails", "code"), "examples")).toContain("SYSTEM_LABEL");
    const errors = overview().slice(overview().indexOf("## Errors"));
    expect(errors).toMatch(/\| 400 `validation_error` \| `SYSTEM_LABEL` \|/);
  });

  it("a received copy starts unread, and a thread's labels follow its messages", () => {
    for (const name of ["Message", "MessageItem"]) {
      expect(str(property(name, "labels"), "description"), name).toContain("`received` and `unread`");
    }
    expect(str(operation(MESSAGE, "patch"), "description")).toContain("thread carries the labels of all its messages");
  });

  it("List Messages and List Threads filter by labels, repeated once per label, all of which must match", () => {
    for (const path of [MESSAGES, THREADS]) {
      const labels = parametersOf(path, operation(path, "get")).find((p) => p.name === "labels");
      expect(labels, path).toMatchObject({ in: "query", required: false, style: "form", explode: true });
      expect(obj(labels ?? {}, "schema"), path).toMatchObject({
        type: "array",
        maxItems: 20,
        items: { type: "string", minLength: 1, maxLength: 64 },
      });
    }
    const parameter = obj(spec, "components", "parameters", "Labels");
    expect(str(parameter, "description")).toContain("every one of these labels");
    expect(str(parameter, "description")).toContain("labels=received&labels=unread");
    expect(overview()).toMatch(/except `labels`, which is repeated once per label/);
  });
});

describe("reply", () => {
  it("Reply To Message is POST .../reply, takes text, html, labels, attachments and reply_all, and answers the ids", () => {
    const op = operation(REPLY, "post");
    expect(op.operationId).toBe("replyToMessage");
    expect(obj(op, "requestBody").required).toBe(true);
    expect(refOf(obj(op, "requestBody", "content", "application/json").schema)).toBe(ref("ReplyToMessageRequest"));
    const body = schema("ReplyToMessageRequest");
    expect(body.required).toBeUndefined();
    expect(body.additionalProperties).toBe(false);
    expect(Object.keys(obj(body, "properties")).sort()).toEqual(["attachments", "html", "labels", "reply_all", "text"]);
    // The default is stated in words, as every request default is: a `default` keyword would make generated types
    // require the field.
    expect(property("ReplyToMessageRequest", "reply_all")).toMatchObject({ type: "boolean" });
    expect(property("ReplyToMessageRequest", "reply_all").default).toBeUndefined();
    expect(str(property("ReplyToMessageRequest", "reply_all"), "description")).toContain("Defaults to false.");
    expect(property("ReplyToMessageRequest", "attachments")).toMatchObject({
      type: "array",
      maxItems: 20,
      items: { $ref: ref("SendAttachment") },
    });
    expect(property("ReplyToMessageRequest", "labels")).toMatchObject({
      type: "array",
      maxItems: 20,
      items: { $ref: ref("Label") },
    });
    expect(refOf(obj(op, "responses", "200", "content", "application/json").schema)).toBe(ref("SendMessageResponse"));
  });

  it("the service addresses the reply: recipients, Re: once, In-Reply-To and References, never the inbox itself", () => {
    const text = str(schema("ReplyToMessageRequest"), "description");
    expect(text).toContain("`reply_to`");
    expect(text).toContain("never to the inbox itself");
    expect(text).toContain("`Re: `");
    expect(text).toContain("(once)");
    expect(text).toContain("`In-Reply-To` and `References`");
    expect(text).toContain("joins its thread");
  });

  it("honours Idempotency-Key as Send Message does: the same header, 409 on reuse, 413 over 10 MiB", () => {
    const reply = operation(REPLY, "post");
    const send = operation(MESSAGES, "post");
    const key = (path: string, op: JsonObject) =>
      parametersOf(path, op).find((p) => p.name === "Idempotency-Key") ?? {};
    expect(key(REPLY, reply)).toEqual(key(MESSAGES, send));
    expect(key(REPLY, reply)).toMatchObject({ in: "header", required: false });
    expect(responseRef(reply, "409")).toBe("#/components/responses/IdempotencyKeyReused");
    expect(responseRef(reply, "413")).toBe("#/components/responses/PayloadTooLarge");
    expect(str(reply, "description")).toContain("`Idempotency-Key` rules");
  });
});

describe("deleting an inbox", () => {
  it("Delete Inbox is DELETE /v0/inboxes/{inbox_id} and answers 204 without a body", () => {
    const op = operation(INBOX, "delete");
    expect(op.operationId).toBe("deleteInbox");
    expect(op.requestBody).toBeUndefined();
    const responses = obj(op, "responses");
    expect(Object.keys(responses).filter((status) => status.startsWith("2"))).toEqual(["204"]);
    expect(obj(responses, "204").content).toBeUndefined();
  });

  it("removes the inbox's messages, threads and pending deliveries, and frees the address", () => {
    const text = str(operation(INBOX, "delete"), "description");
    expect(text).toContain("messages, threads and pending webhook deliveries");
    expect(text).toContain("address becomes free");
    expect(text).toContain("no longer match it");
  });
});

describe("AgentMail's thread summary", () => {
  it("every thread carries what its messages say, under AgentMail's names, and Get Thread counts its messages", () => {
    for (const name of ["ThreadItem", "Thread"]) {
      expect(property(name, "senders")).toMatchObject({ type: "array", items: { type: "string" } });
      expect(property(name, "recipients")).toMatchObject({ type: "array", items: { $ref: ref("EmailAddress") } });
      expect(property(name, "last_message_id").type).toBe("string");
      expect(property(name, "size")).toMatchObject({ type: "integer", minimum: 0 });
      expect(property(name, "preview").type).toEqual(["string", "null"]);
      expect(property(name, "timestamp")).toMatchObject({ type: "string", format: "date-time" });
      for (const nullable of ["sent_timestamp", "received_timestamp"]) {
        expect(property(name, nullable)).toMatchObject({ type: ["string", "null"], format: "date-time" });
      }
    }
    expect(str(property("Thread", "count"), "description")).toContain("message_count");
  });
});
