import { describe, expectTypeOf, it } from "vitest";
import type {
  AddressList,
  AttachmentDownload,
  EmailAddress,
  ErrorResponse,
  ErrorType,
  EventType,
  Inbox,
  Label,
  ListInboxesResponse,
  ListMessagesResponse,
  ListThreadsResponse,
  ListWebhooksResponse,
  Message,
  MessageBouncedEvent,
  MessageComplainedEvent,
  MessageDelayedEvent,
  MessageDeliveredEvent,
  MessageItem,
  MessageReceivedEvent,
  MessageSentEvent,
  Metadata,
  operations,
  paths,
  RawMessageDownload,
  RecipientDelivery,
  ReplyToMessageRequest,
  SendMessageRequest,
  SendMessageResponse,
  Thread,
  ThreadItem,
  UpdateMessageRequest,
  Webhook,
  WebhookDelivery,
  WebhookDeliveryAttempt,
  WebhookEvent,
} from "./index.js";

type JsonBody<Op, Status extends number> = Op extends {
  responses: { [S in Status]: { content: { "application/json": infer B } } };
}
  ? B
  : never;

describe("Inbox", () => {
  it("has the seed's fields and email, all required, with nullable display_name and client_id, and optional metadata", () => {
    expectTypeOf<Inbox>().toEqualTypeOf<{
      pod_id: string;
      inbox_id: string;
      email: string;
      display_name: string | null;
      client_id: string | null;
      created_at: string;
      updated_at: string;
      metadata?: Metadata;
    }>();
  });

  it("is created from an optional body whose fields are all optional (null stands for none)", () => {
    type Body = NonNullable<operations["createInbox"]["requestBody"]>["content"]["application/json"];
    expectTypeOf<Body>().toEqualTypeOf<{
      username?: string;
      domain?: string;
      display_name?: string | null;
      client_id?: string | null;
    }>();
    expectTypeOf<Record<string, never>>().toExtend<Body>();
  });
});

describe("list envelopes", () => {
  it("share count, limit and a nullable next_page_token", () => {
    type Envelope = { count: number; limit: number; next_page_token: string | null };
    expectTypeOf<ListInboxesResponse>().toExtend<Envelope>();
    expectTypeOf<ListMessagesResponse>().toExtend<Envelope>();
    expectTypeOf<ListThreadsResponse>().toExtend<Envelope>();
    expectTypeOf<ListWebhooksResponse>().toExtend<Envelope>();
  });

  it("name their arrays after the resource", () => {
    expectTypeOf<ListInboxesResponse["inboxes"]>().toEqualTypeOf<Inbox[]>();
    expectTypeOf<ListMessagesResponse["messages"]>().toEqualTypeOf<MessageItem[]>();
    expectTypeOf<ListThreadsResponse["threads"]>().toEqualTypeOf<ThreadItem[]>();
    expectTypeOf<ListWebhooksResponse["webhooks"]>().toEqualTypeOf<Webhook[]>();
  });

  it("are what the list operations answer, and every list takes limit and page_token", () => {
    expectTypeOf<JsonBody<operations["listInboxes"], 200>>().toEqualTypeOf<ListInboxesResponse>();
    expectTypeOf<JsonBody<operations["listThreads"], 200>>().toEqualTypeOf<ListThreadsResponse>();
    type Query = NonNullable<paths["/v0/inboxes"]["get"]["parameters"]["query"]>;
    expectTypeOf<Query>().toEqualTypeOf<{ limit?: number; page_token?: string }>();
  });

  it("of messages and threads also filter by labels, a list", () => {
    type Threads = NonNullable<paths["/v0/inboxes/{inbox_id}/threads"]["get"]["parameters"]["query"]>;
    type Messages = NonNullable<paths["/v0/inboxes/{inbox_id}/messages"]["get"]["parameters"]["query"]>;
    expectTypeOf<Threads>().toEqualTypeOf<{ limit?: number; page_token?: string; labels?: string[] }>();
    expectTypeOf<Messages>().toEqualTypeOf<Threads>();
  });
});

describe("messages", () => {
  it("send requires `to` as one address or a list, everything else optional", () => {
    expectTypeOf<SendMessageRequest["to"]>().toEqualTypeOf<AddressList>();
    expectTypeOf<AddressList>().toEqualTypeOf<string | string[]>();
    expectTypeOf<{ to: "ada@example.com" }>().toExtend<SendMessageRequest>();
    expectTypeOf<{ subject: "no recipient" }>().not.toExtend<SendMessageRequest>();
  });

  it("answers message_id and thread_id", () => {
    expectTypeOf<JsonBody<operations["sendMessage"], 200>>().toEqualTypeOf<{ message_id: string; thread_id: string }>();
  });

  it("takes an optional Idempotency-Key header", () => {
    type Header = NonNullable<operations["sendMessage"]["parameters"]["header"]>;
    expectTypeOf<Header>().toEqualTypeOf<{ "Idempotency-Key"?: string }>();
  });

  it("list items leave out the bodies and the deliveries that Get Message has", () => {
    expectTypeOf<MessageItem>().not.toHaveProperty("text");
    expectTypeOf<MessageItem>().not.toHaveProperty("deliveries");
    expectTypeOf<Message>().toHaveProperty("text").toEqualTypeOf<string | null>();
    expectTypeOf<Message>().toHaveProperty("html").toEqualTypeOf<string | null>();
    expectTypeOf<Omit<Message, "text" | "html" | "reply_to" | "deliveries">>().toEqualTypeOf<MessageItem>();
  });

  it("a message lists where each recipient's delivery stands", () => {
    expectTypeOf<Message["deliveries"]>().toEqualTypeOf<RecipientDelivery[]>();
    expectTypeOf<RecipientDelivery>().toEqualTypeOf<{
      address: EmailAddress;
      status: "local" | "captured" | "queued" | "delayed" | "delivered" | "bounced";
      smtp_reply: string | null;
      attempts: number;
      updated_at: string;
    }>();
  });
});

describe("beyond the seed", () => {
  it("labels are updated with two optional lists and answer the Message", () => {
    expectTypeOf<UpdateMessageRequest>().toEqualTypeOf<{ add_labels?: Label[]; remove_labels?: Label[] }>();
    expectTypeOf<Label>().toEqualTypeOf<string>();
    expectTypeOf<JsonBody<operations["updateMessage"], 200>>().toEqualTypeOf<Message>();
  });

  it("a reply needs no field, reply_all included, takes an Idempotency-Key and answers the send's ids", () => {
    expectTypeOf<Record<string, never>>().toExtend<ReplyToMessageRequest>();
    expectTypeOf<ReplyToMessageRequest["reply_all"]>().toEqualTypeOf<boolean | undefined>();
    expectTypeOf<ReplyToMessageRequest["attachments"]>().toEqualTypeOf<SendMessageRequest["attachments"]>();
    type Header = NonNullable<operations["replyToMessage"]["parameters"]["header"]>;
    expectTypeOf<Header>().toEqualTypeOf<{ "Idempotency-Key"?: string }>();
    expectTypeOf<JsonBody<operations["replyToMessage"], 200>>().toEqualTypeOf<SendMessageResponse>();
  });

  it("the downloads answer their bytes, or a download link as JSON to a request that asks for it", () => {
    expectTypeOf<operations["getAttachment"]["responses"][200]["content"]>().toEqualTypeOf<{
      "application/octet-stream": string;
      "application/json": AttachmentDownload;
    }>();
    expectTypeOf<operations["getRawMessage"]["responses"][200]["content"]>().toEqualTypeOf<{
      "message/rfc822": string;
      "application/json": RawMessageDownload;
    }>();
    expectTypeOf<operations["getAttachment"]["responses"][200]["headers"]>().toHaveProperty("Content-Disposition");
  });

  it("deleting an inbox answers a bodiless 204", () => {
    expectTypeOf<paths["/v0/inboxes/{inbox_id}"]["delete"]>().toEqualTypeOf<operations["deleteInbox"]>();
    expectTypeOf<operations["deleteInbox"]["responses"][204]["content"]>().toEqualTypeOf<undefined>();
  });
});

describe("threads", () => {
  it("carry the seed's fields, and Get Thread adds the messages", () => {
    expectTypeOf<ThreadItem["participants"]>().toEqualTypeOf<string[]>();
    expectTypeOf<ThreadItem["message_count"]>().toEqualTypeOf<number>();
    expectTypeOf<Omit<Thread, "messages" | "count">>().toEqualTypeOf<ThreadItem>();
    expectTypeOf<Thread["messages"]>().toEqualTypeOf<Message[]>();
    expectTypeOf<Thread["count"]>().toEqualTypeOf<number>();
  });

  it("carry AgentMail's summary of their messages", () => {
    expectTypeOf<ThreadItem["senders"]>().toEqualTypeOf<string[]>();
    expectTypeOf<ThreadItem["recipients"]>().toEqualTypeOf<string[]>();
    expectTypeOf<ThreadItem["last_message_id"]>().toEqualTypeOf<string>();
    expectTypeOf<ThreadItem["size"]>().toEqualTypeOf<number>();
    expectTypeOf<ThreadItem["preview"]>().toEqualTypeOf<string | null>();
    expectTypeOf<ThreadItem["timestamp"]>().toEqualTypeOf<string>();
    expectTypeOf<ThreadItem["sent_timestamp"]>().toEqualTypeOf<string | null>();
    expectTypeOf<ThreadItem["received_timestamp"]>().toEqualTypeOf<string | null>();
  });
});

describe("webhooks", () => {
  it("have nullable filters, where null means everything", () => {
    expectTypeOf<Webhook["event_types"]>().toEqualTypeOf<EventType[] | null>();
    expectTypeOf<Webhook["inbox_ids"]>().toEqualTypeOf<string[] | null>();
  });

  it("name inboxes by address, one string type for every address field", () => {
    expectTypeOf<EmailAddress>().toEqualTypeOf<string>();
    expectTypeOf<Inbox["inbox_id"]>().toEqualTypeOf<EmailAddress>();
    expectTypeOf<NonNullable<Webhook["inbox_ids"]>[number]>().toEqualTypeOf<EmailAddress>();
  });

  it("accept only known event types", () => {
    expectTypeOf<"message.received">().toExtend<EventType>();
    expectTypeOf<"message.sent">().toExtend<EventType>();
    expectTypeOf<"message.delayed">().toExtend<EventType>();
    expectTypeOf<"message.deleted">().not.toExtend<EventType>();
  });

  it("are updated with PUT and deleted with a bodiless 204", () => {
    expectTypeOf<paths["/v0/webhooks/{webhook_id}"]["put"]>().toEqualTypeOf<operations["updateWebhook"]>();
    expectTypeOf<operations["deleteWebhook"]["responses"][204]["content"]>().toEqualTypeOf<undefined>();
  });

  it("deliver a union of six events discriminated by event_type", () => {
    expectTypeOf<WebhookEvent>().toEqualTypeOf<
      | MessageReceivedEvent
      | MessageSentEvent
      | MessageDeliveredEvent
      | MessageDelayedEvent
      | MessageBouncedEvent
      | MessageComplainedEvent
    >();
    expectTypeOf<WebhookEvent["event_type"]>().toEqualTypeOf<
      | "message.received"
      | "message.sent"
      | "message.delivered"
      | "message.delayed"
      | "message.bounced"
      | "message.complained"
    >();
    const narrow = (event: WebhookEvent) => {
      switch (event.event_type) {
        case "message.received":
          expectTypeOf(event.message).toEqualTypeOf<Message>();
          expectTypeOf(event.thread).toEqualTypeOf<ThreadItem>();
          break;
        case "message.sent":
          expectTypeOf(event.send.recipients).toEqualTypeOf<string[]>();
          break;
        case "message.delivered":
          expectTypeOf(event.delivery).toEqualTypeOf<MessageSentEvent["send"]>();
          break;
        case "message.delayed":
          expectTypeOf(event.delay.recipients).toEqualTypeOf<{ address: EmailAddress; status: string }[]>();
          expectTypeOf(event.delay.next_attempt_at).toEqualTypeOf<string>();
          break;
        case "message.bounced":
          expectTypeOf(event.bounce.type).toEqualTypeOf<"Permanent" | "Transient">();
          expectTypeOf(event.bounce.recipients).toEqualTypeOf<{ address: EmailAddress; status: string }[]>();
          break;
        default:
          expectTypeOf(event).toEqualTypeOf<MessageComplainedEvent>();
          expectTypeOf(event.complaint.type).toEqualTypeOf<"abuse">();
          expectTypeOf(event.complaint.sub_type).toEqualTypeOf<string | undefined>();
          expectTypeOf(event.complaint.recipients).toEqualTypeOf<EmailAddress[]>();
      }
    };
    expectTypeOf(narrow).toBeFunction();
  });

  it("keep a log of deliveries, each with its attempts, listed by page and redelivered with a 202", () => {
    expectTypeOf<WebhookDelivery["status"]>().toEqualTypeOf<"pending" | "succeeded" | "failed">();
    expectTypeOf<WebhookDelivery["attempts"]>().toEqualTypeOf<WebhookDeliveryAttempt[]>();
    expectTypeOf<WebhookDelivery["next_attempt_at"]>().toEqualTypeOf<string | null>();
    expectTypeOf<WebhookDeliveryAttempt>().toEqualTypeOf<{
      attempted_at: string;
      status_code: number | null;
      error: string | null;
      latency_ms: number;
    }>();
    expectTypeOf<JsonBody<operations["listWebhookDeliveries"], 200>["deliveries"]>().toEqualTypeOf<WebhookDelivery[]>();
    expectTypeOf<operations["listWebhookDeliveries"]["parameters"]["query"]>().toEqualTypeOf<
      | {
          status?: "pending" | "succeeded" | "failed";
          event_type?: WebhookDelivery["event_type"];
          limit?: number;
          page_token?: string;
        }
      | undefined
    >();
    expectTypeOf<JsonBody<operations["redeliverWebhookDelivery"], 202>>().toEqualTypeOf<WebhookDelivery>();
  });
});

describe("errors", () => {
  it("use the seed's envelope", () => {
    expectTypeOf<ErrorResponse>().toEqualTypeOf<{
      error: { type: ErrorType; message: string; details: { field: string | null; code: string } };
    }>();
  });

  it("have the decided error types and no others", () => {
    expectTypeOf<ErrorType>().toEqualTypeOf<
      | "validation_error"
      | "authentication_error"
      | "not_found_error"
      | "conflict_error"
      | "rate_limit_error"
      | "payload_too_large_error"
      | "internal_error"
    >();
  });

  it("are documented on every status an operation can answer", () => {
    expectTypeOf<JsonBody<operations["getInbox"], 404>>().toEqualTypeOf<ErrorResponse>();
    expectTypeOf<JsonBody<operations["sendMessage"], 409>>().toEqualTypeOf<ErrorResponse>();
    expectTypeOf<JsonBody<operations["updateWebhook"], 409>>().toEqualTypeOf<ErrorResponse>();
    expectTypeOf<JsonBody<operations["listInboxes"], 429>>().toEqualTypeOf<ErrorResponse>();
    expectTypeOf<operations["listInboxes"]["responses"]>().not.toHaveProperty(404);
  });
});
