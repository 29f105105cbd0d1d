import { describe, expectTypeOf, it } from "vitest";
import type {
  Clock,
  CreateFaultRequest,
  ErrorResponse,
  ErrorType,
  EventType,
  ExtractFromMessageResponse,
  Fault,
  ListFaultsResponse,
  MailFault,
  Message,
  operations,
  paths,
  RecipientDelivery,
  RequestAction,
  RequestFault,
  WaitForMessageResponse,
  WaitForWebhookDeliveryResponse,
  WebhookDelivery,
  WebhookDeliveryAttempt,
  WebhookFault,
} from "./index.js";

type JsonBody<Op, Status extends number> = Op extends {
  responses: { [S in Status]: { content: { "application/json": infer B } } };
}
  ? B
  : never;
type RequestBody<Op> = Op extends { requestBody?: { content: { "application/json": infer B } } } ? B : never;
type Query<Op> = Op extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

describe("paths", () => {
  it("all start with /_test, with no version", () => {
    expectTypeOf<keyof paths>().toEqualTypeOf<
      | "/_test/clock"
      | "/_test/clock/advance"
      | "/_test/faults"
      | "/_test/faults/{fault_id}"
      | "/_test/wait/message"
      | "/_test/wait/webhook-delivery"
      | "/_test/messages/{message_id}/extract"
      | "/_test/reset"
    >();
  });
});

describe("clock", () => {
  it("answers now, frozen and offset_ms from get, set and advance", () => {
    expectTypeOf<Clock>().toEqualTypeOf<{ now: string; frozen: boolean; offset_ms: number }>();
    expectTypeOf<JsonBody<operations["getClock"], 200>>().toEqualTypeOf<Clock>();
    expectTypeOf<JsonBody<operations["setClock"], 200>>().toEqualTypeOf<Clock>();
    expectTypeOf<JsonBody<operations["advanceClock"], 200>>().toEqualTypeOf<Clock>();
  });

  it("is set with an optional now and frozen, advanced by ms, and has no delete", () => {
    expectTypeOf<RequestBody<operations["setClock"]>>().toEqualTypeOf<{ now?: string; frozen?: boolean }>();
    expectTypeOf<RequestBody<operations["advanceClock"]>>().toEqualTypeOf<{ ms: number }>();
    expectTypeOf<paths["/_test/clock"]["delete"]>().toEqualTypeOf<undefined>();
  });
});

describe("faults", () => {
  it("are created with one of three bodies, discriminated by target", () => {
    expectTypeOf<RequestBody<operations["createFault"]>>().toEqualTypeOf<CreateFaultRequest>();
    expectTypeOf<CreateFaultRequest["target"]>().toEqualTypeOf<"request" | "webhook" | "mail">();
    expectTypeOf<{
      target: "request";
      match: { method: "POST"; path: "/v0/inboxes/*/messages" };
      times: 2;
      action: { type: "respond"; status: 429; headers: { "Retry-After": "2" } };
    }>().toExtend<CreateFaultRequest>();
    expectTypeOf<{
      target: "mail";
      match: { to: "ada@example.com" };
      action: { type: "bounce" };
    }>().toExtend<CreateFaultRequest>();
    // A webhook action on a request fault, or a request fault without its path, is not a fault.
    expectTypeOf<{
      target: "request";
      match: { path: "/v0/inboxes" };
      action: { type: "duplicate" };
    }>().not.toExtend<CreateFaultRequest>();
    expectTypeOf<{
      target: "request";
      match: { method: "GET" };
      action: { type: "drop"; when: "before" };
    }>().not.toExtend<CreateFaultRequest>();
  });

  it("act on requests by responding, dropping before or after, or delaying", () => {
    expectTypeOf<RequestAction["type"]>().toEqualTypeOf<"respond" | "drop" | "delay">();
    const describeAction = (action: RequestAction) => {
      switch (action.type) {
        case "respond":
          expectTypeOf(action.status).toEqualTypeOf<number>();
          expectTypeOf(action.headers).toEqualTypeOf<Record<string, string> | undefined>();
          expectTypeOf(action.body).toEqualTypeOf<unknown>();
          break;
        case "drop":
          expectTypeOf(action.when).toEqualTypeOf<"before" | "after">();
          break;
        default:
          expectTypeOf(action.ms).toEqualTypeOf<number>();
      }
    };
    expectTypeOf(describeAction).toBeFunction();
  });

  it("act on webhook deliveries and mail with their own actions", () => {
    expectTypeOf<WebhookFault["action"]["type"]>().toEqualTypeOf<"fail" | "duplicate" | "hold">();
    expectTypeOf<WebhookFault["match"]>().toEqualTypeOf<{ webhook_id?: string; event_type?: EventType }>();
    expectTypeOf<MailFault["action"]["type"]>().toEqualTypeOf<"bounce" | "delay">();
    expectTypeOf<MailFault["match"]>().toEqualTypeOf<{ to: string }>();
  });

  it("answer with their counts, the same fields for every target", () => {
    expectTypeOf<Fault>().toEqualTypeOf<RequestFault | WebhookFault | MailFault>();
    type Counts = { fault_id: string; times: number; remaining: number; hits: number; created_at: string };
    expectTypeOf<Fault>().toExtend<Counts>();
    expectTypeOf<JsonBody<operations["createFault"], 201>>().toEqualTypeOf<Fault>();
    expectTypeOf<JsonBody<operations["getFault"], 200>>().toEqualTypeOf<Fault>();
    expectTypeOf<JsonBody<operations["listFaults"], 200>>().toEqualTypeOf<ListFaultsResponse>();
    expectTypeOf<ListFaultsResponse>().toEqualTypeOf<{ faults: Fault[] }>();
  });

  it("are deleted one by one or all at once with a bodiless 204", () => {
    expectTypeOf<operations["deleteFault"]["responses"][204]["content"]>().toEqualTypeOf<undefined>();
    expectTypeOf<operations["deleteFaults"]["responses"][204]["content"]>().toEqualTypeOf<undefined>();
    expectTypeOf<operations["deleteFault"]["parameters"]["path"]>().toEqualTypeOf<{ fault_id: string }>();
  });
});

describe("wait and extract", () => {
  it("wait for a message by filters, answering the Inbox API's Message with its links and codes", () => {
    expectTypeOf<Query<operations["waitForMessage"]>>().toEqualTypeOf<{
      inbox_id?: string;
      from?: string;
      to?: string;
      subject?: string;
      text?: string;
      label?: string[];
      since?: string;
      timeout_ms?: number;
    }>();
    expectTypeOf<JsonBody<operations["waitForMessage"], 200>>().toEqualTypeOf<WaitForMessageResponse>();
    expectTypeOf<WaitForMessageResponse>().toEqualTypeOf<{ message: Message; links: string[]; codes: string[] }>();
    expectTypeOf<Message["deliveries"]>().toEqualTypeOf<RecipientDelivery[]>();
    expectTypeOf<Message["text"]>().toEqualTypeOf<string | null>();
  });

  it("wait for a webhook delivery, answering the delivery log's shape", () => {
    expectTypeOf<Query<operations["waitForWebhookDelivery"]>>().toEqualTypeOf<{
      webhook_id?: string;
      event_type?: EventType;
      event_id?: string;
      status?: "pending" | "succeeded" | "failed";
      since?: string;
      timeout_ms?: number;
    }>();
    expectTypeOf<WaitForWebhookDeliveryResponse>().toEqualTypeOf<{ delivery: WebhookDelivery }>();
    expectTypeOf<WebhookDelivery>().toEqualTypeOf<{
      delivery_id: string;
      webhook_id: string;
      event_id: string;
      event_type: EventType;
      status: "pending" | "succeeded" | "failed";
      attempts: WebhookDeliveryAttempt[];
      next_attempt_at: string | null;
      created_at: string;
      updated_at: string;
    }>();
    expectTypeOf<WebhookDeliveryAttempt>().toEqualTypeOf<{
      attempted_at: string;
      status_code: number | null;
      error: string | null;
      latency_ms: number;
    }>();
  });

  it("time out with a 404 in the error envelope", () => {
    expectTypeOf<JsonBody<operations["waitForMessage"], 404>>().toEqualTypeOf<ErrorResponse>();
    expectTypeOf<JsonBody<operations["waitForWebhookDelivery"], 404>>().toEqualTypeOf<ErrorResponse>();
  });

  it("extract from a message named by its id and inbox", () => {
    expectTypeOf<operations["extractFromMessage"]["parameters"]["path"]>().toEqualTypeOf<{ message_id: string }>();
    expectTypeOf<Query<operations["extractFromMessage"]>>().toEqualTypeOf<{ inbox_id: string }>();
    expectTypeOf<ExtractFromMessageResponse>().toEqualTypeOf<{ links: string[]; codes: string[] }>();
  });

  it("know message.complained among the event types", () => {
    expectTypeOf<"message.complained">().toExtend<EventType>();
    expectTypeOf<"message.deleted">().not.toExtend<EventType>();
  });
});

describe("reset", () => {
  it("takes an optional body with an optional api_key and answers a bodiless 204", () => {
    expectTypeOf<operations["reset"]["requestBody"]>().toEqualTypeOf<
      { content: { "application/json": { api_key?: string } } } | undefined
    >();
    expectTypeOf<operations["reset"]["responses"][204]["content"]>().toEqualTypeOf<undefined>();
  });
});

describe("errors", () => {
  it("use the Inbox API's envelope, with the four types test control answers", () => {
    expectTypeOf<ErrorResponse>().toEqualTypeOf<{
      error: { type: ErrorType; message: string; details: { field: string | null; code: string } };
    }>();
    expectTypeOf<ErrorType>().toEqualTypeOf<
      "validation_error" | "authentication_error" | "not_found_error" | "internal_error"
    >();
  });

  it("are documented on the statuses each operation can answer", () => {
    expectTypeOf<JsonBody<operations["setClock"], 400>>().toEqualTypeOf<ErrorResponse>();
    expectTypeOf<JsonBody<operations["getFault"], 404>>().toEqualTypeOf<ErrorResponse>();
    expectTypeOf<JsonBody<operations["reset"], 401>>().toEqualTypeOf<ErrorResponse>();
    expectTypeOf<operations["getClock"]["responses"]>().not.toHaveProperty(404);
    expectTypeOf<operations["getClock"]["responses"]>().not.toHaveProperty(429);
  });
});
