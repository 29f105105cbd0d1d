import { describe, expect, it } from "vitest";
import { ManualClock } from "../../../test/support/test-server.ts";
import type { LogFields } from "../../logger.ts";
import { FaultRegistry } from "./fault-registry.ts";

function registry() {
  const lines: (LogFields & { msg: string })[] = [];
  const faults = new FaultRegistry(new ManualClock(), {
    info: (msg, fields) => lines.push({ msg, ...fields }),
    warn: () => {},
    error: () => {},
  });
  return { faults, lines };
}

describe("the fault registry", () => {
  it("gives mail faults to the outbound hook: by address without regard to case, oldest first, as many times as asked", () => {
    const { faults, lines } = registry();
    const bounce = faults.create({
      target: "mail",
      match: { to: "Ada@Example.com" },
      times: 2,
      action: { type: "bounce" },
    });
    const delay = faults.create({ target: "mail", match: { to: "ada@example.com" }, action: { type: "delay" } });
    expect(faults.takeMailFault("bob@example.com")).toBeUndefined();
    expect(
      ["ADA@example.com", "ada@example.com", "ada@example.com", "ada@example.com"].map((to) =>
        faults.takeMailFault(to),
      ),
    ).toEqual(["bounce", "bounce", "delay", undefined]);
    expect(faults.get(bounce.fault_id)).toMatchObject({ times: 2, remaining: 0, hits: 2 });
    expect(faults.get(delay.fault_id)).toMatchObject({ times: 1, remaining: 0, hits: 1 });
    expect(lines.map((line) => [line.msg, line.fault_id, line.action])).toEqual([
      ["fault applied", bounce.fault_id, "bounce"],
      ["fault applied", bounce.fault_id, "bounce"],
      ["fault applied", delay.fault_id, "delay"],
    ]);
  });

  it("keeps kinds apart: a webhook fault never applies to a request, nor a mail fault to a webhook", () => {
    const { faults } = registry();
    faults.create({ target: "webhook", match: {}, action: { type: "duplicate" } });
    faults.create({ target: "mail", match: { to: "ada@example.com" }, action: { type: "bounce" } });
    expect(faults.takeRequestFault({ method: "GET", path: "/v0/inboxes", apiKey: undefined })).toBeUndefined();
    expect(faults.takeWebhookFault({ webhookId: "wh_1", eventType: "message.received", eventId: "e" })?.action).toEqual(
      {
        type: "duplicate",
      },
    );
    expect(faults.takeWebhookFault({ webhookId: "wh_1", eventType: "message.received", eventId: "e" })).toBeUndefined();
  });

  it("answers copies: what a caller does with a fault it read does not change the registry", () => {
    const { faults } = registry();
    const created = faults.create({ target: "request", match: { path: "/v0/**" }, action: { type: "delay", ms: 5 } });
    created.remaining = 99;
    const [listed] = faults.list();
    expect(listed?.remaining).toBe(1);
  });
});
