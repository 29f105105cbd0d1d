import { describe, expect, it } from "vitest";
import { summariseArrivals, summariseLatencies } from "./webhook-delivery.ts";

describe("summariseArrivals", () => {
  const answeredAt = new Map([
    ["<a@bench>", 100],
    ["<b@bench>", 200],
  ]);

  it("measures each event from its send's 200, per event type", () => {
    const [sent, received] = summariseArrivals(answeredAt, [
      { eventType: "message.sent", messageId: "<a@bench>", at: 103 },
      { eventType: "message.received", messageId: "<a@bench>", at: 110 },
      { eventType: "message.sent", messageId: "<b@bench>", at: 201 },
      { eventType: "message.received", messageId: "<b@bench>", at: 250 },
    ]);
    expect(sent).toEqual({
      eventType: "message.sent",
      latency: { count: 2, p50: 1, p95: 3, p99: 3, max: 3 },
      lost: 0,
      repeated: 0,
    });
    expect(received).toMatchObject({ eventType: "message.received", latency: { p50: 10, max: 50 }, lost: 0 });
  });

  it("counts events that never arrived and repeats, measuring a repeated event by its first arrival", () => {
    const [sent, received] = summariseArrivals(answeredAt, [
      { eventType: "message.sent", messageId: "<a@bench>", at: 105 },
      { eventType: "message.sent", messageId: "<a@bench>", at: 900 },
      { eventType: "message.sent", messageId: "<other@elsewhere>", at: 300 },
      { eventType: "message.bounced", messageId: "<b@bench>", at: 300 },
    ]);
    expect(sent).toEqual({
      eventType: "message.sent",
      latency: { count: 1, p50: 5, p95: 5, p99: 5, max: 5 },
      lost: 1,
      repeated: 1,
    });
    expect(received?.lost).toBe(2);
    expect(received?.latency.count).toBe(0);
    expect(received?.latency.p50).toBeNaN();
  });
});

describe("summariseLatencies", () => {
  it("answers the nearest-rank p50, p95, p99 and the largest", () => {
    const values = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(summariseLatencies(values)).toEqual({ count: 100, p50: 50, p95: 95, p99: 99, max: 100 });
  });
});
