import { describe, expectTypeOf, it } from "vitest";
import {
  type Clock,
  createTestControl,
  type ExtractFromMessageResponse,
  type Fault,
  type MailFault,
  type RequestFault,
  type WaitForMessageResponse,
  WaitTimedOutError,
  type WebhookDelivery,
  type WebhookFault,
} from "./index.js";

const tc = createTestControl();

describe("helpers", () => {
  it("resolve to the spec's shapes", () => {
    expectTypeOf(tc.clock.get()).resolves.toEqualTypeOf<Clock>();
    expectTypeOf(tc.clock.advance({ minutes: 5 })).resolves.toEqualTypeOf<Clock>();
    expectTypeOf(tc.waitForMessage({ subject: "Hi" })).resolves.toEqualTypeOf<WaitForMessageResponse>();
    expectTypeOf(tc.waitForWebhookDelivery({ status: "failed" })).resolves.toEqualTypeOf<WebhookDelivery>();
    expectTypeOf(tc.extract("a@pigeonhole.test", "<m@x>")).resolves.toEqualTypeOf<ExtractFromMessageResponse>();
    expectTypeOf(tc.faults.list()).resolves.toEqualTypeOf<Fault[]>();
    expectTypeOf(tc.reset()).resolves.toEqualTypeOf<void>();
  });

  it("type the armed fault by its target", () => {
    expectTypeOf(
      tc.faults.add({ target: "request", match: { path: "/v0/**" }, action: { type: "drop", when: "after" } }),
    ).resolves.toEqualTypeOf<RequestFault>();
    expectTypeOf(
      tc.faults.add({ target: "webhook", match: {}, times: 2, action: { type: "duplicate" } }),
    ).resolves.toEqualTypeOf<WebhookFault>();
    expectTypeOf(
      tc.faults.add({ target: "mail", match: { to: "a@b.test" }, action: { type: "bounce" } }),
    ).resolves.toEqualTypeOf<MailFault>();
  });

  it("refuse a fault of the wrong shape", () => {
    // @ts-expect-error a mail fault has no path to match
    void tc.faults.add({ target: "mail", match: { path: "/v0/**" }, action: { type: "bounce" } });
    // @ts-expect-error bouncing is a mail action, not a request's
    void tc.faults.add({ target: "request", match: { path: "/v0/**" }, action: { type: "bounce" } });
    // @ts-expect-error a respond action needs its status
    void tc.faults.add({ target: "request", match: { path: "/v0/**" }, action: { type: "respond" } });
    // @ts-expect-error a drop says when
    void tc.faults.add({ target: "request", match: { path: "/v0/**" }, action: { type: "drop" } });
    // @ts-expect-error the key is api_key
    void tc.faults.add({ target: "request", match: { path: "/v0/**", apiKey: "k" }, action: { type: "delay", ms: 5 } });
    // @ts-expect-error there is no such target
    void tc.faults.add({ target: "stream", match: {}, action: { type: "fail" } });
    // @ts-expect-error times is a number
    void tc.faults.add({ target: "webhook", match: {}, times: "2", action: { type: "fail" } });
  });

  it("refuse an unknown or mistyped filter", () => {
    // @ts-expect-error the inbox filter is inbox_id
    void tc.waitForMessage({ inbox: "a@pigeonhole.test" });
    // @ts-expect-error labels are a list
    void tc.waitForMessage({ label: "received" });
    // @ts-expect-error the timeout is timeout_ms
    void tc.waitForMessage({ timeout: 5_000 });
    // @ts-expect-error not a status of a delivery
    void tc.waitForWebhookDelivery({ status: "delivered" });
    // @ts-expect-error not an event type
    void tc.waitForWebhookDelivery({ event_type: "message.read" });
    // @ts-expect-error deliveries are not filtered by inbox
    void tc.waitForWebhookDelivery({ inbox_id: "a@pigeonhole.test" });
  });

  it("take the clock's parts and refuse others", () => {
    void tc.clock.set({ now: new Date(), frozen: true });
    // @ts-expect-error the clock is set with now, not time
    void tc.clock.set({ time: new Date() });
    // @ts-expect-error weeks are not a part
    void tc.clock.advance({ weeks: 1 });
    void tc.reset({ api_key: "k" });
    // @ts-expect-error reset takes api_key, as the spec names it
    void tc.reset({ apiKey: "k" });
  });
});

describe("errors", () => {
  it("narrow a wait's timeout to its envelope", () => {
    const error: unknown = undefined;
    if (error instanceof WaitTimedOutError) {
      expectTypeOf(error.body.error.details.code).toEqualTypeOf<string>();
      expectTypeOf(error.service).toEqualTypeOf<"test-control">();
    }
  });
});

describe("the spec's operations", () => {
  it("are callable directly and checked against the spec", () => {
    expectTypeOf(tc.get("/_test/faults")).resolves.toEqualTypeOf<{ faults: Fault[] }>();
    // @ts-expect-error there is no DELETE on the clock: time never goes back
    void tc.delete("/_test/clock");
  });
});
