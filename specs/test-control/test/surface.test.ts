// What test control promises, checked against the bundle (`dist/openapi.json`; run `pnpm bundle` first): its paths and
// operations, the overview's statements (prefix, ports, key, when it is on, one instance, magic addresses), and the
// shapes and rules of the clock, the faults, the waits, extraction and reset.

import { type JsonObject, loadBundle, refOf } from "@pigeonhole/spec-testing/bundle";
import { describe, expect, it } from "vitest";

const {
  arr,
  obj,
  operation,
  operations,
  parameter,
  property,
  propertyNames,
  refAt,
  required,
  response,
  schema,
  spec,
  str,
} = loadBundle(new URL("../dist/openapi.json", import.meta.url));

// Lines are wrapped in the source: compare words, not line breaks.
const words = (text: string): string => text.replaceAll(/\s+/g, " ");
const overview = (): string => words(str(spec, "info", "description"));
const section = (heading: string): string => {
  const text = str(spec, "info", "description");
  const start = text.indexOf(heading);
  expect(start, heading).toBeGreaterThanOrEqual(0);
  const end = text.indexOf("\n## ", start + 1);
  return words(text.slice(start, end === -1 ? undefined : end));
};
const description = (operationId: string): string => words(str(operation(operationId).operation, "description"));
const ref = (name: string): string => `#/components/schemas/${name}`;
const bodyRef = (body: JsonObject): string | undefined => refOf(obj(body, "content", "application/json").schema);
const oneOfRefs = (name: string): (string | undefined)[] => arr(schema(name), "oneOf").map((branch) => refOf(branch));

describe("paths and operations", () => {
  it("are the design's, each under its tag, all under /_test", () => {
    const listed = operations().map(({ method, path, operation: op }) => [
      `${method.toUpperCase()} ${path}`,
      op.operationId,
      str(op, "tags", 0),
    ]);
    expect(listed).toEqual([
      ["GET /_test/clock", "getClock", "Clock"],
      ["PUT /_test/clock", "setClock", "Clock"],
      ["POST /_test/clock/advance", "advanceClock", "Clock"],
      ["GET /_test/faults", "listFaults", "Faults"],
      ["POST /_test/faults", "createFault", "Faults"],
      ["DELETE /_test/faults", "deleteFaults", "Faults"],
      ["GET /_test/faults/{fault_id}", "getFault", "Faults"],
      ["DELETE /_test/faults/{fault_id}", "deleteFault", "Faults"],
      ["GET /_test/wait/message", "waitForMessage", "Wait"],
      ["GET /_test/wait/webhook-delivery", "waitForWebhookDelivery", "Wait"],
      ["GET /_test/messages/{message_id}/extract", "extractFromMessage", "Extract"],
      ["POST /_test/reset", "reset", "Reset"],
    ]);
    expect(arr(spec, "tags").map((tag) => str(tag, "name"))).toEqual(["Clock", "Faults", "Wait", "Extract", "Reset"]);
  });

  it("offer no way to turn the clock back", () => {
    expect(obj(spec, "paths", "/_test/clock").delete).toBeUndefined();
  });

  it("name the local server on both service ports", () => {
    expect(arr(spec, "servers").map((server) => str(server, "url"))).toEqual([
      "http://127.0.0.1:4010",
      "http://127.0.0.1:4020",
    ]);
  });
});

describe("the overview", () => {
  it("says what test control is for", () => {
    const text = overview();
    for (const purpose of ["`Retry-After`", "503", "twice", "out of order", "bounce", "clock", "wait", "wipe"]) {
      expect(text).toContain(purpose);
    }
  });

  it("puts every path under /_test on both service ports, with one state", () => {
    const text = section("## Where");
    expect(text).toContain("Every path starts with `/_test`");
    expect(text).toContain("`http://127.0.0.1:4010`");
    expect(text).toContain("`http://127.0.0.1:4020`");
    expect(text).toContain("same handlers and the same state");
    expect(text).toContain("a fault's path pattern picks the service");
  });

  it("names the key, its default, and the three ways to set it; API keys are refused", () => {
    const text = section("## Authentication");
    expect(text).toContain("`Authorization: Bearer <key>`");
    expect(text).toContain("`pigeonhole-test-control-dev`");
    expect(text).toContain("`PIGEONHOLE_TEST_CONTROL_KEY`");
    expect(text).toContain("`--test-control-key <key>`");
    expect(text).toContain("`startServer({ testControl: { key } })`");
    expect(text).toMatch(/Inbox API keys and Forum agent keys are refused with 401/);
  });

  it("says when it is on, how to switch it, that off means an unknown path, and never in production", () => {
    const text = section("## When it is on");
    expect(text).toContain("on by default only when the server runs locally");
    for (const start of [
      "`--memory`",
      "`--dev-keys`",
      "`--test-control`",
      "`--no-test-control`",
      "`testControl: false`",
    ]) {
      expect(text).toContain(start);
    }
    expect(text).toContain("needs a key given explicitly");
    expect(text).toContain("every `/_test` path answers exactly what an unknown path answers, a 404");
    expect(text).toContain("must never be on in production");
    expect(text).toContain("say whether test control is on");
  });

  it("calls it a single-instance tool", () => {
    const text = section("## One instance");
    expect(text).toContain("memory of one server instance");
    expect(text).toContain("Each instance of a cluster has its own clock and faults");
  });

  it("lists the magic addresses of simulator.pigeonhole.test and what each produces", () => {
    const text = section("## Magic addresses");
    expect(text).toContain("`simulator.pigeonhole.test`");
    expect(text).toContain("never reaches a relay");
    const rows = Object.fromEntries(
      [...text.matchAll(/\| `([a-z]+)@simulator\.pigeonhole\.test` \| ([^|]+) \|/g)].map(([, local, what]) => [
        local,
        what ?? "",
      ]),
    );
    expect(Object.keys(rows).sort()).toEqual(["bounce", "complaint", "delay", "delivered"]);
    expect(rows.delivered).toContain("`message.delivered`");
    expect(rows.bounce).toMatch(/`message.bounced` .*`Permanent`.*`General`/);
    expect(rows.delay).toMatch(/`message.delayed`.*then.*`message.delivered`/);
    expect(rows.complaint).toMatch(/`message.delivered`.*then `message.complained`.*`abuse`/);
    expect(text).toContain("| any other address of the domain | delivered");
  });

  it("uses the Inbox API's error envelope, with CLOCK_BACKWARDS and WAIT_TIMED_OUT among its codes", () => {
    const text = section("## Errors");
    expect(text).toContain("the Inbox API's shape");
    expect(text).toContain("| 400 `validation_error` | `CLOCK_BACKWARDS` |");
    expect(text).toContain("| 404 `not_found_error` | `WAIT_TIMED_OUT` |");
    expect(text).toContain("| 404 `not_found_error` | `NOT_FOUND` |");
    expect(required("ErrorResponse")).toEqual(["error"]);
    expect(required("ErrorBody")).toEqual(["details", "message", "type"]);
    expect(required("ErrorDetails")).toEqual(["code", "field"]);
  });
});

describe("the clock", () => {
  it("answers now, frozen and offset_ms from each of its operations", () => {
    expect(required("Clock")).toEqual(["frozen", "now", "offset_ms"]);
    expect(propertyNames("Clock")).toEqual(["frozen", "now", "offset_ms"]);
    for (const id of ["getClock", "setClock", "advanceClock"]) {
      expect(bodyRef(response(id, "200")), id).toBe(ref("Clock"));
    }
  });

  it("is set with an optional now and frozen, and never backwards", () => {
    expect(schema("SetClockRequest").required).toBeUndefined();
    expect(propertyNames("SetClockRequest")).toEqual(["frozen", "now"]);
    expect(property("SetClockRequest", "now")).toMatchObject({ type: "string", format: "date-time" });
    expect(description("setClock")).toContain("400 `CLOCK_BACKWARDS`");
    expect(description("setClock")).toContain("stored records never appear to come from the future");
    expect(description("setClock")).toContain("Reset (without `api_key`) returns the clock to real time");
  });

  it("advances by 1 ms to 400 days, and wakes the background workers at once", () => {
    expect(property("AdvanceClockRequest", "ms")).toMatchObject({
      type: "integer",
      minimum: 1,
      maximum: 400 * 24 * 60 * 60 * 1000,
    });
    const text = description("advanceClock");
    for (const due of ["idempotency-key expiry", "rate limit", "daily send limit", "retry schedules", "hot rank"]) {
      expect(text).toContain(due);
    }
    expect(text).toContain("woken at once");
  });
});

describe("faults", () => {
  it("are created with one of three targets, discriminated by target", () => {
    expect(bodyRef(obj(operation("createFault").operation, "requestBody"))).toBe(ref("CreateFaultRequest"));
    expect(oneOfRefs("CreateFaultRequest")).toEqual([
      ref("CreateRequestFaultRequest"),
      ref("CreateWebhookFaultRequest"),
      ref("CreateMailFaultRequest"),
    ]);
    expect(obj(schema("CreateFaultRequest"), "discriminator").propertyName).toBe("target");
    for (const [name, target] of [
      ["CreateRequestFaultRequest", "request"],
      ["CreateWebhookFaultRequest", "webhook"],
      ["CreateMailFaultRequest", "mail"],
    ] as const) {
      expect(required(name), name).toEqual(["action", "match", "target"]);
      expect(property(name, "target").enum, name).toEqual([target]);
      expect(property(name, "times"), name).toMatchObject({ type: "integer", minimum: 1 });
      expect(str(property(name, "times"), "description"), name).toContain("1 when omitted");
    }
  });

  it("on requests match a method, a glob path and an API key, and respond, drop or delay", () => {
    expect(required("RequestMatch")).toEqual(["path"]);
    expect(propertyNames("RequestMatch")).toEqual(["api_key", "method", "path"]);
    const path = words(str(property("RequestMatch", "path"), "description"));
    expect(path).toContain("a `*` segment matches any one segment, a `**` segment any number of segments");
    expect(oneOfRefs("RequestAction")).toEqual([
      ref("RespondRequestAction"),
      ref("DropRequestAction"),
      ref("DelayRequestAction"),
    ]);
    expect(property("RespondRequestAction", "status")).toMatchObject({ minimum: 400, maximum: 599 });
    expect(propertyNames("RespondRequestAction")).toEqual(["body", "headers", "status", "type"]);
    expect(property("DropRequestAction", "when").enum).toEqual(["before", "after"]);
    expect(property("DelayRequestAction", "ms")).toMatchObject({ minimum: 1, maximum: 60000 });
  });

  it("on webhooks match a webhook and an event type, and fail (503 by default), duplicate or hold", () => {
    expect(propertyNames("WebhookMatch")).toEqual(["event_type", "webhook_id"]);
    expect(oneOfRefs("WebhookAction")).toEqual([
      ref("FailWebhookAction"),
      ref("DuplicateWebhookAction"),
      ref("HoldWebhookAction"),
    ]);
    expect(property("FailWebhookAction", "status")).toMatchObject({ minimum: 500, maximum: 599 });
    expect(str(property("FailWebhookAction", "status"), "description")).toContain("503 when omitted");
  });

  it("on mail match an address, and bounce or delay once", () => {
    expect(required("MailMatch")).toEqual(["to"]);
    expect(oneOfRefs("MailAction")).toEqual([ref("BounceMailAction"), ref("DelayMailAction")]);
  });

  it("answer their counts, stay listed when spent, and are logged when applied", () => {
    for (const name of ["RequestFault", "WebhookFault", "MailFault"]) {
      expect(required(name), name).toEqual(
        ["action", "created_at", "fault_id", "hits", "match", "remaining", "target", "times"].sort(),
      );
      expect(property(name, "fault_id").pattern, name).toBe("^flt_[A-Za-z0-9]+$");
    }
    expect(bodyRef(response("createFault", "201"))).toBe(ref("Fault"));
    expect(bodyRef(response("getFault", "200"))).toBe(ref("Fault"));
    expect(refAt(property("ListFaultsResponse", "faults"), "items")).toBe(ref("Fault"));
    const text = description("createFault");
    expect(text).toContain("A spent fault (`remaining` 0) stays listed until it is deleted or reset");
    expect(text).toContain("`fault applied` line");
    expect(text).toContain("test-control requests never match");
  });
});

describe("waiting and extraction", () => {
  it("wait for a message by the design's filters, label repeated", () => {
    const names = operation("waitForMessage").parameters.map((p) => `${p.in}:${p.name}`);
    expect(names).toEqual(
      ["inbox_id", "from", "to", "subject", "text", "label", "since", "timeout_ms"].map((name) => `query:${name}`),
    );
    expect(parameter("waitForMessage", "label")).toMatchObject({ style: "form", explode: true });
    expect(bodyRef(response("waitForMessage", "200"))).toBe(ref("WaitForMessageResponse"));
    expect(required("WaitForMessageResponse")).toEqual(["codes", "links", "message"]);
  });

  it("wait for a webhook delivery by the design's filters", () => {
    const names = operation("waitForWebhookDelivery").parameters.map((p) => `${p.in}:${p.name}`);
    expect(names).toEqual(
      ["webhook_id", "event_type", "event_id", "status", "since", "timeout_ms"].map((name) => `query:${name}`),
    );
    expect(obj(parameter("waitForWebhookDelivery", "status"), "schema").enum).toEqual([
      "pending",
      "succeeded",
      "failed",
    ]);
    expect(required("WaitForWebhookDeliveryResponse")).toEqual(["delivery"]);
  });

  it("answer within 50 ms of a commit, or time out after 10 s by default, 60 s at most, with WAIT_TIMED_OUT", () => {
    expect(obj(parameter("waitForMessage", "timeout_ms"), "schema")).toMatchObject({
      minimum: 0,
      maximum: 60000,
      default: 10000,
    });
    for (const id of ["waitForMessage", "waitForWebhookDelivery"]) {
      expect(description(id), id).toContain("within 50 ms of the commit");
      expect(description(id), id).toContain("404 `WAIT_TIMED_OUT`");
      expect(refOf(obj(operation(id).operation, "responses")["404"]), id).toBe("#/components/responses/WaitTimedOut");
    }
  });

  it("extract links and codes from a message named by its id and its inbox", () => {
    expect(operation("extractFromMessage").parameters.map((p) => `${p.in}:${p.name}:${p.required}`)).toEqual([
      "path:message_id:true",
      "query:inbox_id:true",
    ]);
    expect(required("ExtractFromMessageResponse")).toEqual(["codes", "links"]);
    const text = description("extractFromMessage");
    expect(text).toContain("4 to 8 digits, or of 6 to 10 upper-case letters and digits with at least one digit");
    expect(text).toContain("`href` attributes");
  });
});

describe("shapes copied from the Inbox API", () => {
  it("Message has the inbox's fields, all required", () => {
    const fields = [
      "inbox_id",
      "thread_id",
      "message_id",
      "labels",
      "timestamp",
      "from",
      "to",
      "cc",
      "bcc",
      "reply_to",
      "subject",
      "preview",
      "text",
      "html",
      "attachments",
      "in_reply_to",
      "references",
      "headers",
      "size",
      "deliveries",
      "created_at",
      "updated_at",
    ].sort();
    expect(propertyNames("Message")).toEqual(fields);
    expect(required("Message")).toEqual(fields);
  });

  it("WebhookDelivery and WebhookDeliveryAttempt have the delivery log's fields", () => {
    const delivery = [
      "delivery_id",
      "webhook_id",
      "event_id",
      "event_type",
      "status",
      "attempts",
      "next_attempt_at",
      "created_at",
      "updated_at",
    ].sort();
    expect(propertyNames("WebhookDelivery")).toEqual(delivery);
    expect(required("WebhookDelivery")).toEqual(delivery);
    expect(property("WebhookDelivery", "status").enum).toEqual(["pending", "succeeded", "failed"]);
    expect(property("WebhookDelivery", "next_attempt_at").type).toEqual(["string", "null"]);
    const attempt = ["attempted_at", "status_code", "error", "latency_ms"].sort();
    expect(propertyNames("WebhookDeliveryAttempt")).toEqual(attempt);
    expect(required("WebhookDeliveryAttempt")).toEqual(attempt);
    expect(property("WebhookDeliveryAttempt", "status_code").type).toEqual(["integer", "null"]);
    expect(property("WebhookDeliveryAttempt", "error").type).toEqual(["string", "null"]);
  });

  it("EventType includes message.complained", () => {
    expect(schema("EventType").enum).toContain("message.complained");
  });
});

describe("reset", () => {
  it("takes an optional body with an optional api_key, and says what each form wipes", () => {
    const body = obj(operation("reset").operation, "requestBody");
    expect(body.required).toBe(false);
    expect(propertyNames("ResetRequest")).toEqual(["api_key"]);
    expect(schema("ResetRequest").required).toBeUndefined();
    const text = description("reset");
    expect(text).toContain("The key itself stays valid");
    expect(text).toContain("all data of both services (API keys and agents stay), every fault, and the clock");
  });
});
