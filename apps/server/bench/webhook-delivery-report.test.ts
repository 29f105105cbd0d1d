import { describe, expect, it } from "vitest";
import type { WebhookDeliveryResult } from "./webhook-delivery.ts";
import { renderWebhookDelivery, timesSend } from "./webhook-delivery-report.ts";

const result: WebhookDeliveryResult = {
  messages: 200,
  send: { count: 200, p50: 4, p95: 8, p99: 10, max: 12.34 },
  events: [
    {
      eventType: "message.sent",
      latency: { count: 200, p50: 2, p95: 6, p99: 30, max: 41 },
      lost: 0,
      repeated: 0,
    },
    {
      eventType: "message.received",
      latency: { count: 0, p50: Number.NaN, p95: Number.NaN, p99: Number.NaN, max: Number.NaN },
      lost: 200,
      repeated: 0,
    },
  ],
};

describe("timesSend", () => {
  it("divides a delivery percentile by the send's, and answers '-' without both", () => {
    expect(timesSend(6, 4)).toBe("1.50x");
    expect(timesSend(Number.NaN, 4)).toBe("-");
    expect(timesSend(6, 0)).toBe("-");
  });
});

describe("renderWebhookDelivery", () => {
  it("puts the baseline first and each event against it, aligned under the header", () => {
    const lines = renderWebhookDelivery(result);
    expect(lines).toHaveLength(4);
    const [header, send, sent, received] = lines.map((line) => line.trim().split(/\s{2,}/));
    expect(header).toEqual([
      "measured",
      "count",
      "lost",
      "repeated",
      "p50 ms",
      "p95 ms",
      "p99 ms",
      "max ms",
      "p50 x send",
      "p95 x send",
      "p99 x send",
    ]);
    expect(send).toEqual(["send request (to its 200)", "200", "-", "-", "4.0", "8.0", "10.0", "12.3", "-", "-", "-"]);
    expect(sent).toEqual([
      "message.sent (after the 200)",
      "200",
      "0",
      "0",
      "2.0",
      "6.0",
      "30.0",
      "41.0",
      "0.50x",
      "0.75x",
      "3.00x",
    ]);
    expect(received).toEqual(["message.received (after the 200)", "0", "200", "0", "-", "-", "-", "-", "-", "-", "-"]);
    expect(new Set(lines.map((line) => line.length)).size).toBe(1);
  });
});
