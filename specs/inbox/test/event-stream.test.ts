// The live event stream (`/v0/ws`): documented in the overview and in the root `x-event-stream` extension, with the
// subscription a client sends and every message the stream sends as schemas. Checked against the source (where the
// extension refers to the schemas by name) and the bundle (`dist/openapi.json`; run `pnpm bundle` first).

import { readFileSync } from "node:fs";
import { type JsonObject, loadBundle, refOf } from "@pigeonhole/spec-testing/bundle";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";

const { obj, spec, str, schema, property, required, propertyNames } = loadBundle(
  new URL("../dist/openapi.json", import.meta.url),
);
const source = parse(readFileSync(new URL("../openapi.yaml", import.meta.url), "utf8")) as JsonObject;
const ref = (name: string): string => `#/components/schemas/${name}`;
const overview = (): string => str(spec, "info", "description");
const liveEvents = (): string => {
  const text = overview();
  const start = text.indexOf("## Live events (WebSocket)");
  const end = text.indexOf("\n## ", start + 1);
  // Lines are wrapped in the source: compare words, not line breaks.
  return text.slice(start, end === -1 ? undefined : end).replaceAll(/\s+/g, " ");
};

describe("the overview", () => {
  it("has a Live events section: the path, both ways to send the key, the subscription and resuming", () => {
    const text = liveEvents();
    expect(text).toContain("## Live events (WebSocket)");
    expect(text).toContain("`/v0/ws`");
    expect(text).toContain("`Authorization: Bearer <key>`");
    expect(text).toContain("`?api_key=<key>`");
    expect(text).toMatch(/invalid key answers the upgrade with 401/);
    expect(text).toContain(
      '{"type": "subscribe", "event_types": ["message.received"], "inbox_ids": ["support@pigeonhole.test"]}',
    );
    expect(text).toContain("`after`");
    expect(text).toContain("kept 7 days");
  });

  it("names the close codes a client reconnects after and the one it does not", () => {
    const text = liveEvents();
    expect(text).toMatch(/`EventStreamError` followed by close code 1008/);
    expect(text).toMatch(/1001 means the instance is shutting down/);
    expect(text).toMatch(/1013 that the client read too slowly/);
    expect(text).toContain("reconnect and resume");
  });
});

describe("x-event-stream", () => {
  it("names /v0/ws and refers to the subscription and message schemas by name", () => {
    const extension = obj(source, "x-event-stream");
    expect(extension.path).toBe("/v0/ws");
    expect(refOf(extension.subscription)).toBe(ref("EventSubscription"));
    expect(refOf(extension.messages)).toBe(ref("EventStreamMessage"));
  });

  it("survives bundling with the same schemas as the components", () => {
    const extension = obj(spec, "x-event-stream");
    expect(extension.path).toBe("/v0/ws");
    expect(obj(extension, "subscription")).toEqual(schema("EventSubscription"));
    expect(obj(extension, "messages")).toEqual(schema("EventStreamMessage"));
  });

  it("is not an HTTP operation: /v0/ws is no path of the spec", () => {
    expect(Object.keys(obj(spec, "paths"))).not.toContain("/v0/ws");
  });
});

describe("the stream's messages", () => {
  it("are subscribed, error and every webhook's event body, each told apart by type", () => {
    const messages = schema("EventStreamMessage");
    const variants = (messages.oneOf as JsonObject[]).map((variant) => refOf(variant));
    const events = [
      "MessageReceivedEvent",
      "MessageSentEvent",
      "MessageDeliveredEvent",
      "MessageDelayedEvent",
      "MessageBouncedEvent",
      "MessageComplainedEvent",
    ];
    expect(variants).toEqual([ref("EventSubscribed"), ref("EventStreamError"), ...events.map(ref)]);
    expect(property("EventSubscribed", "type").const).toBe("subscribed");
    expect(property("EventStreamError", "type").const).toBe("error");
    for (const event of events) {
      expect(property(event, "type").const, event).toBe("event");
    }
    expect(str(messages, "description")).toContain("Ignore message types you do not know");
  });

  it("subscribed states the filters in force, null for all", () => {
    expect(required("EventSubscribed")).toEqual(["event_types", "inbox_ids", "type"]);
    expect(property("EventSubscribed", "event_types").type).toEqual(["array", "null"]);
    expect(property("EventSubscribed", "inbox_ids").type).toEqual(["array", "null"]);
  });

  it("an error carries the service's error body, with every code it can have, and closes with 1008", () => {
    expect(required("EventStreamError")).toEqual(["error", "type"]);
    expect(refOf(obj(schema("EventStreamError"), "properties").error)).toBe(ref("ErrorBody"));
    const text = str(schema("EventStreamError"), "description");
    for (const code of ["INVALID_JSON", "INVALID_VALUE", "NOT_FOUND", "EVENT_NOT_FOUND"]) {
      expect(text).toContain(`\`${code}\``);
    }
    expect(text).toContain("1008");
  });
});

describe("the subscription", () => {
  it("accepts only the documented fields, of which only type is required", () => {
    const subscription = schema("EventSubscription");
    expect(subscription.additionalProperties).toBe(false);
    expect(required("EventSubscription")).toEqual(["type"]);
    expect(propertyNames("EventSubscription")).toEqual(["after", "event_types", "inbox_ids", "type"]);
    expect(property("EventSubscription", "type").const).toBe("subscribe");
  });

  it("filters by event types and inboxes with the same schemas webhooks use, within bounds", () => {
    expect(property("EventSubscription", "event_types")).toMatchObject({
      type: "array",
      minItems: 1,
      maxItems: 10,
      items: { $ref: ref("EventType") },
    });
    expect(property("EventSubscription", "inbox_ids")).toMatchObject({
      type: "array",
      minItems: 1,
      maxItems: 100,
      items: { $ref: ref("EmailAddress") },
    });
    expect(str(property("EventSubscription", "inbox_ids"), "description")).toContain("`NOT_FOUND`");
  });

  it("resumes after an event id, replaying what followed it, for 7 days", () => {
    expect(property("EventSubscription", "after")).toMatchObject({ type: "string", minLength: 1, maxLength: 64 });
    const text = str(property("EventSubscription", "after"), "description");
    expect(text).toContain("replays, in order");
    expect(text).toContain("nothing lost or repeated");
    expect(text).toContain("`EVENT_NOT_FOUND`");
  });
});
