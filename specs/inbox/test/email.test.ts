// Real e-mail (`DECISIONS.md`, "E-mail transport"): the overview's E-mail section, each sent message's per-recipient
// `deliveries`, and the three relay outcomes as webhooks and stream events. Checked against the bundle
// (`dist/openapi.json`; run `pnpm bundle` first).

import { type Json, type JsonObject, loadBundle, refOf } from "@pigeonhole/spec-testing/bundle";
import { describe, expect, it } from "vitest";

const { arr, obj, spec, str, schema, property, required, operationsOf } = loadBundle(
  new URL("../dist/openapi.json", import.meta.url),
);
const ref = (name: string): string => `#/components/schemas/${name}`;
// Lines are wrapped in the source: compare words, not line breaks.
const words = (text: string): string => text.replaceAll(/\s+/g, " ");
const section = (heading: string): string => {
  const text = str(spec, "info", "description");
  const start = text.indexOf(heading);
  expect(start, heading).toBeGreaterThanOrEqual(0);
  const end = text.indexOf("\n## ", start + 1);
  return words(text.slice(start, end === -1 ? undefined : end));
};

/** The three events that report what the relay answered, with the property that carries each one's details. */
const OUTCOMES = [
  { eventType: "message.delivered", schemaName: "MessageDeliveredEvent", field: "delivery", body: "MessageSent" },
  { eventType: "message.delayed", schemaName: "MessageDelayedEvent", field: "delay", body: "MessageDelay" },
  { eventType: "message.bounced", schemaName: "MessageBouncedEvent", field: "bounce", body: "MessageBounce" },
] as const;

const webhookPost = (eventType: string): JsonObject => obj(spec, "webhooks", eventType, "post");
const webhookExamples = (eventType: string): Json[] => {
  const examples = obj(webhookPost(eventType), "requestBody", "content", "application/json", "examples");
  return Object.keys(examples).map((name) => obj(examples, name).value as Json);
};

describe("the overview's E-mail section", () => {
  it("says how mail comes in: only for hosted addresses, 250 once stored, received and unread, threaded", () => {
    const text = section("## E-mail");
    expect(text).toContain("over SMTP");
    expect(text).toContain("550 5.1.1");
    expect(text).toMatch(/answers 250 only once the message is stored/);
    expect(text).toContain("`received` and `unread`");
    expect(text).toContain("`In-Reply-To` and `References`");
    expect(text).toContain("`message.received`");
  });

  it("says how mail goes out: through the relay from a durable queue, once per recipient, or captured", () => {
    const text = section("## E-mail");
    expect(text).toContain("SMTP relay");
    expect(text).toContain("durable queue");
    expect(text).toContain("sent once per recipient");
    for (const { eventType } of OUTCOMES) {
      expect(text).toContain(`\`${eventType}\``);
    }
    expect(text).toContain("`deliveries`");
    expect(text).toMatch(/no relay configured .* \(`captured`\)/);
  });

  it("lists the six webhook events in the Webhooks section and in the Webhooks tag", () => {
    const webhooks = section("## Webhooks");
    const tag = arr(spec, "tags")
      .map((t) => obj(t))
      .find((t) => t.name === "Webhooks");
    for (const eventType of [
      "message.received",
      "message.sent",
      ...OUTCOMES.map((o) => o.eventType),
      "message.complained",
    ]) {
      expect(webhooks).toContain(`\`${eventType}\``);
      expect(words(str(tag ?? {}, "description"))).toContain(`\`${eventType}\``);
    }
  });
});

describe("a sent message's deliveries", () => {
  it("Message requires deliveries, a list of RecipientDelivery; the list items of Message do not carry it", () => {
    expect(required("Message")).toContain("deliveries");
    expect(property("Message", "deliveries")).toMatchObject({
      type: "array",
      items: { $ref: ref("RecipientDelivery") },
    });
    expect(obj(schema("MessageItem"), "properties").deliveries).toBeUndefined();
    const text = words(str(property("Message", "deliveries"), "description"));
    expect(text).toContain("one entry per address of `to`, `cc` and `bcc`");
    expect(text).toContain("empty on a received copy");
  });

  it("a RecipientDelivery is an address, one of six statuses, the last SMTP reply, attempts and a time", () => {
    expect(required("RecipientDelivery")).toEqual(["address", "attempts", "smtp_reply", "status", "updated_at"]);
    expect(refOf(obj(schema("RecipientDelivery"), "properties").address)).toBe(ref("EmailAddress"));
    expect(arr(property("RecipientDelivery", "status"), "enum")).toEqual([
      "local",
      "captured",
      "queued",
      "delayed",
      "delivered",
      "bounced",
    ]);
    expect(property("RecipientDelivery", "smtp_reply").type).toEqual(["string", "null"]);
    expect(property("RecipientDelivery", "attempts")).toMatchObject({ type: "integer", minimum: 0 });
    expect(property("RecipientDelivery", "updated_at")).toMatchObject({ type: "string", format: "date-time" });
  });

  it("every status is explained in the schema's description", () => {
    const text = str(schema("RecipientDelivery"), "description");
    for (const status of arr(property("RecipientDelivery", "status"), "enum")) {
      expect(text).toContain(`\`${String(status)}\``);
    }
  });
});

describe("the relay's outcomes as webhooks", () => {
  it.each(OUTCOMES)("$eventType is a documented delivery whose body is $schemaName", (outcome) => {
    const op = webhookPost(outcome.eventType);
    expect(op.operationId).toBe(`on${outcome.schemaName.replace(/Event$/, "")}`);
    expect(op.tags).toEqual(["Webhooks"]);
    expect(str(op, "summary")).not.toBe("");
    expect(refOf(obj(op, "requestBody", "content", "application/json").schema)).toBe(ref(outcome.schemaName));
  });

  it.each(OUTCOMES)("$schemaName is {type: event, event_type: $eventType, event_id, $field}", (outcome) => {
    expect(required(outcome.schemaName)).toEqual(["event_id", "event_type", outcome.field, "type"].sort());
    expect(property(outcome.schemaName, "type").const).toBe("event");
    expect(property(outcome.schemaName, "event_type").const).toBe(outcome.eventType);
    expect(refOf(obj(schema(outcome.schemaName), "properties")[outcome.field])).toBe(ref(outcome.body));
  });

  it.each(OUTCOMES)("every example of $eventType is that event, from the sending inbox", (outcome) => {
    const examples = webhookExamples(outcome.eventType);
    expect(examples.length).toBeGreaterThan(0);
    for (const example of examples) {
      const body = obj(example);
      expect(body).toMatchObject({ type: "event", event_type: outcome.eventType });
      expect(str(body, "event_id")).toMatch(/^evt_/);
      expect(str(body, outcome.field, "inbox_id")).toMatch(/@/);
      expect(str(body, outcome.field, "message_id")).toMatch(/^<.+@.+>$/);
    }
  });

  it("the event types a webhook filters by include all three", () => {
    const names = arr(schema("EventType"), "enum");
    for (const { eventType } of OUTCOMES) {
      expect(names).toContain(eventType);
    }
    expect(words(str(schema("EventType"), "description"))).toContain(
      "`message.delivered`, `message.delayed` and `message.bounced`",
    );
  });
});

describe("the details of a delay and a bounce", () => {
  it("a delay names the ids, the time, each recipient with its reply, and the next attempt", () => {
    expect(required("MessageDelay")).toEqual(
      ["inbox_id", "message_id", "next_attempt_at", "recipients", "thread_id", "timestamp"].sort(),
    );
    expect(property("MessageDelay", "recipients")).toMatchObject({
      type: "array",
      minItems: 1,
      items: { $ref: ref("RecipientReply") },
    });
    expect(property("MessageDelay", "next_attempt_at")).toMatchObject({ type: "string", format: "date-time" });
    expect(words(str(schema("MessageDelay"), "description"))).toContain("once per recipient");
  });

  it("a bounce is Permanent or Transient, with a sub_type and each recipient with its reply", () => {
    expect(required("MessageBounce")).toEqual(
      ["inbox_id", "message_id", "recipients", "sub_type", "thread_id", "timestamp", "type"].sort(),
    );
    expect(arr(property("MessageBounce", "type"), "enum")).toEqual(["Permanent", "Transient"]);
    expect(str(property("MessageBounce", "sub_type"), "description")).toContain("`General`");
    expect(property("MessageBounce", "recipients")).toMatchObject({
      type: "array",
      minItems: 1,
      items: { $ref: ref("RecipientReply") },
    });
  });

  it("a recipient's reply is its address and the relay's SMTP reply", () => {
    expect(required("RecipientReply")).toEqual(["address", "status"]);
    expect(refOf(obj(schema("RecipientReply"), "properties").address)).toBe(ref("EmailAddress"));
    for (const example of webhookExamples("message.bounced")) {
      for (const recipient of arr(example, "bounce", "recipients")) {
        expect(str(recipient, "status")).toMatch(/^5\d\d /);
      }
    }
    for (const example of webhookExamples("message.delayed")) {
      for (const recipient of arr(example, "delay", "recipients")) {
        expect(str(recipient, "status")).toMatch(/^4\d\d /);
      }
    }
  });
});

describe("the live event stream", () => {
  it("carries every event a webhook can receive, with the same body schema", () => {
    const variants = (schema("EventStreamMessage").oneOf as JsonObject[]).map((variant) => refOf(variant));
    const webhookBodies = operationsOf(obj(spec, "webhooks")).map(({ operation }) =>
      refOf(obj(operation, "requestBody", "content", "application/json").schema),
    );
    expect(webhookBodies).toHaveLength(6);
    for (const body of webhookBodies) {
      expect(variants).toContain(body);
    }
  });
});
