import { describe, expect, it } from "vitest";
import { summariseReceipts } from "./fan-out.ts";

describe("summariseReceipts", () => {
  const sendStarts = new Map([
    ["<a@bench>", 100],
    ["<b@bench>", 200],
  ]);

  it("measures each receipt from its send's start and finds the last receipt", () => {
    const summary = summariseReceipts(sendStarts, [
      [
        { messageId: "<a@bench>", at: 103 },
        { messageId: "<b@bench>", at: 201 },
      ],
      [
        { messageId: "<a@bench>", at: 110 },
        { messageId: "<b@bench>", at: 250 },
      ],
    ]);
    expect(summary).toEqual({ latencies: [3, 1, 10, 50], lost: 0, repeated: 0, lastAt: 250 });
  });

  it("counts, per subscriber, the events it never heard and those it heard twice", () => {
    const summary = summariseReceipts(sendStarts, [
      [{ messageId: "<a@bench>", at: 105 }],
      [
        { messageId: "<b@bench>", at: 204 },
        { messageId: "<b@bench>", at: 206 },
      ],
      [],
    ]);
    expect(summary.lost).toBe(1 + 1 + 2);
    expect(summary.repeated).toBe(1);
    expect(summary.latencies).toEqual([5, 4, 6]);
  });

  it("leaves out events of messages the run did not send", () => {
    const summary = summariseReceipts(sendStarts, [
      [
        { messageId: "<earlier@bench>", at: 999 },
        { messageId: "<a@bench>", at: 101 },
        { messageId: "<b@bench>", at: 202 },
      ],
    ]);
    expect(summary).toEqual({ latencies: [1, 2], lost: 0, repeated: 0, lastAt: 202 });
  });
});
