// The webhook delivery log (List Webhook Deliveries, Redeliver Webhook Delivery) and the `message.complained`
// event, checked against the bundle (`dist/openapi.json`; run `pnpm bundle` first).

import { type Json, type JsonObject, loadBundle, refOf } from "@pigeonhole/spec-testing/bundle";
import { describe, expect, it } from "vitest";

const { arr, obj, spec, str, schema, property, required } = loadBundle(
  new URL("../dist/openapi.json", import.meta.url),
);

const ref = (name: string): string => `#/components/schemas/${name}`;
const words = (text: string): string => text.replaceAll(/\s+/g, " ");
const DELIVERIES = "/v0/webhooks/{webhook_id}/deliveries";
const REDELIVER = "/v0/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver";
const parametersOf = (path: string, method: string): Json[] => {
  const own = obj(spec, "paths", path, method).parameters;
  return [...arr(spec, "paths", path, "parameters"), ...(Array.isArray(own) ? own : [])];
};
const parameterNames = (path: string, method: string): string[] =>
  parametersOf(path, method).map((parameter) => str(parameter, "name"));
const parameter = (path: string, method: string, name: string): Json =>
  parametersOf(path, method).find((candidate) => str(candidate, "name") === name) ?? {};
const examplesOf = (media: JsonObject): Json[] =>
  Object.values(obj(media, "examples")).map((example) => obj(example).value as Json);

describe("List Webhook Deliveries", () => {
  const op = obj(spec, "paths", DELIVERIES, "get");

  it("is GET .../deliveries under the webhook, paged and filtered by status and event type", () => {
    expect(op.operationId).toBe("listWebhookDeliveries");
    expect(op.tags).toEqual(["Webhooks"]);
    expect(parameterNames(DELIVERIES, "get")).toEqual(["webhook_id", "status", "event_type", "limit", "page_token"]);
    expect(arr(parameter(DELIVERIES, "get", "status"), "schema", "enum")).toEqual(["pending", "succeeded", "failed"]);
    expect(arr(parameter(DELIVERIES, "get", "event_type"), "schema", "enum")).toEqual(arr(schema("EventType"), "enum"));
  });

  it("answers a page like every inbox list: count, limit, next_page_token and the deliveries, newest first", () => {
    const media = obj(op, "responses", "200", "content", "application/json");
    expect(refOf(media.schema)).toBe(ref("ListWebhookDeliveriesResponse"));
    expect(required("ListWebhookDeliveriesResponse")).toEqual(
      ["count", "limit", "next_page_token", "deliveries"].sort(),
    );
    expect(property("ListWebhookDeliveriesResponse", "deliveries")).toMatchObject({
      type: "array",
      items: { $ref: ref("WebhookDelivery") },
    });
    expect(str(op, "description")).toContain("newest first");
    expect(words(str(spec, "info", "description"))).toContain("webhooks, a webhook's deliveries) answers");
  });
});

describe("Redeliver Webhook Delivery", () => {
  const op = obj(spec, "paths", REDELIVER, "post");

  it("is POST .../redeliver with the two ids in the path and no body, answering 202 with the delivery", () => {
    expect(op.operationId).toBe("redeliverWebhookDelivery");
    expect(op.tags).toEqual(["Webhooks"]);
    expect(op.requestBody).toBeUndefined();
    expect(parameterNames(REDELIVER, "post")).toEqual(["webhook_id", "delivery_id"]);
    expect(refOf(obj(op, "responses", "202", "content", "application/json").schema)).toBe(ref("WebhookDelivery"));
    expect(Object.keys(obj(op, "responses")).sort()).toEqual(["202", "400", "401", "404", "429", "500"]);
  });

  it("says it keeps the event's webhook-id and signs anew, whatever the delivery's status", () => {
    const text = words(str(op, "description"));
    expect(text).toContain("same `webhook-id`");
    expect(text).toContain("new timestamp and signature");
    expect(text).toContain("whatever its status");
    for (const example of examplesOf(obj(op, "responses", "202", "content", "application/json"))) {
      expect(obj(example).status).toBe("pending");
    }
  });
});

describe("a delivery and its attempts", () => {
  it("a WebhookDelivery names its delivery, webhook and event, its status, attempts and next attempt", () => {
    expect(required("WebhookDelivery")).toEqual(
      [
        "delivery_id",
        "webhook_id",
        "event_id",
        "event_type",
        "status",
        "attempts",
        "next_attempt_at",
        "created_at",
        "updated_at",
      ].sort(),
    );
    expect(arr(property("WebhookDelivery", "status"), "enum")).toEqual(["pending", "succeeded", "failed"]);
    expect(property("WebhookDelivery", "attempts")).toMatchObject({
      type: "array",
      items: { $ref: ref("WebhookDeliveryAttempt") },
    });
    expect(property("WebhookDelivery", "next_attempt_at").type).toEqual(["string", "null"]);
    for (const status of arr(property("WebhookDelivery", "status"), "enum")) {
      expect(str(property("WebhookDelivery", "status"), "description")).toContain(`\`${String(status)}\``);
    }
  });

  it("an attempt is a time, a status code or null, an error or null, and a latency", () => {
    expect(required("WebhookDeliveryAttempt")).toEqual(["attempted_at", "status_code", "error", "latency_ms"].sort());
    expect(property("WebhookDeliveryAttempt", "attempted_at")).toMatchObject({ type: "string", format: "date-time" });
    expect(property("WebhookDeliveryAttempt", "status_code").type).toEqual(["integer", "null"]);
    expect(property("WebhookDeliveryAttempt", "error").type).toEqual(["string", "null"]);
    expect(property("WebhookDeliveryAttempt", "latency_ms")).toMatchObject({ type: "integer", minimum: 0 });
  });

  it("the delivery ids of the examples are the DeliveryId parameter's", () => {
    const id = str(obj(spec, "components", "parameters", "DeliveryId"), "example");
    expect(id).toMatch(/^dlv_[A-Za-z0-9]{16}$/);
    const page = examplesOf(obj(spec, "paths", DELIVERIES, "get", "responses", "200", "content", "application/json"));
    for (const example of page) {
      for (const delivery of arr(example, "deliveries")) {
        expect(str(delivery, "delivery_id")).toBe(id);
      }
    }
  });
});

describe("message.complained", () => {
  it("is a documented delivery and stream event: {type: event, event_type, event_id, complaint}", () => {
    const post = obj(spec, "webhooks", "message.complained", "post");
    expect(post.operationId).toBe("onMessageComplained");
    expect(refOf(obj(post, "requestBody", "content", "application/json").schema)).toBe(ref("MessageComplainedEvent"));
    expect(required("MessageComplainedEvent")).toEqual(["type", "event_type", "event_id", "complaint"].sort());
    expect(property("MessageComplainedEvent", "event_type").const).toBe("message.complained");
    expect(refOf(obj(schema("MessageComplainedEvent"), "properties").complaint)).toBe(ref("MessageComplaint"));
    const variants = (schema("EventStreamMessage").oneOf as JsonObject[]).map((variant) => refOf(variant));
    expect(variants).toContain(ref("MessageComplainedEvent"));
  });

  it("a complaint names the message, the time, the kind (abuse) and the recipients' addresses", () => {
    expect(required("MessageComplaint")).toEqual(
      ["inbox_id", "thread_id", "message_id", "timestamp", "type", "recipients"].sort(),
    );
    expect(arr(property("MessageComplaint", "type"), "enum")).toEqual(["abuse"]);
    expect(property("MessageComplaint", "sub_type").type).toBe("string");
    expect(property("MessageComplaint", "recipients")).toMatchObject({
      type: "array",
      minItems: 1,
      items: { $ref: ref("EmailAddress") },
    });
  });

  it("the E-mail section points at the magic addresses of test control", () => {
    const text = words(str(spec, "info", "description"));
    const email = text.slice(text.indexOf("## E-mail"), text.indexOf("## Live events"));
    expect(email).toContain("simulator.pigeonhole.test");
    expect(email).toContain("`complaint@`");
    expect(email).toContain("`message.complained`");
  });
});
