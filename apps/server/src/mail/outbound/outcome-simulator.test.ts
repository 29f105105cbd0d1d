import { describe, expect, it } from "vitest";
import type { SendStore } from "../../storage/inbox/send-store.ts";
import { OutcomeSimulator } from "./outcome-simulator.ts";
import type { SimulatedOutcome } from "./simulated-outcome.ts";

// What a send decided for each outside recipient holds until the recipient's outcome is final, and no longer.

/** A simulator whose hook answers from `answers` (undefined: relay the recipient), recording every question. */
function simulatorAnswering(answers: Record<string, SimulatedOutcome | undefined>) {
  const asked: string[] = [];
  const simulator = new OutcomeSimulator((recipient) => {
    asked.push(recipient);
    return answers[recipient];
  });
  return { simulator, asked };
}

describe("OutcomeSimulator", () => {
  it("asks once per recipient of a send, and the attempts get that answer whatever the hook says later", () => {
    const answers: Record<string, SimulatedOutcome | undefined> = { "ada@faulty.example": "bounce" };
    const { simulator, asked } = simulatorAnswering(answers);
    expect(simulator.plan("m1", "ada@faulty.example", false)).toBe("bounce");
    // The send's transaction ran again: the same answer, without asking.
    expect(simulator.plan("m1", "ada@faulty.example", false)).toBe("bounce");
    answers["ada@faulty.example"] = undefined;
    expect(simulator.outcomeFor("m1", "ada@faulty.example")).toBe("bounce");
    expect(simulator.outcomeFor("m1", "ada@faulty.example")).toBe("bounce");
    expect(asked).toEqual(["ada@faulty.example"]);
    expect(simulator.pending).toBe(1);
    simulator.settle("m1", "ada@faulty.example");
    expect(simulator.pending).toBe(0);
  });

  it("remembers a recipient left to the relay, so that a fault added before its attempt does not catch it", () => {
    const answers: Record<string, SimulatedOutcome | undefined> = {};
    const { simulator } = simulatorAnswering(answers);
    expect(simulator.plan("m1", "bob@example.org", true)).toBeUndefined();
    answers["bob@example.org"] = "bounce";
    expect(simulator.outcomeFor("m1", "bob@example.org")).toBeUndefined();
    simulator.settle("m1", "bob@example.org");
    expect(simulator.pending).toBe(0);
  });

  it("keeps nothing for a recipient without a relay and without an outcome: it is captured, never attempted", () => {
    const { simulator } = simulatorAnswering({});
    expect(simulator.plan("m1", "bob@example.org", false)).toBeUndefined();
    expect(simulator.pending).toBe(0);
  });

  it("asks again at an attempt it has no plan for (after a restart)", () => {
    const { simulator, asked } = simulatorAnswering({ "delay@x.test": "delay" });
    expect(simulator.outcomeFor("m9", "delay@x.test")).toBe("delay");
    expect(asked).toEqual(["delay@x.test"]);
    expect(simulator.pending).toBe(0);
  });

  it("forgets every plan of a send whose transaction did not commit", async () => {
    const { simulator } = simulatorAnswering({ "a@x.test": "bounce", "b@x.test": "delay", "c@x.test": "delivered" });
    const failing: SendStore = { inSendTransaction: () => Promise.reject(new Error("rolled back")) };
    const sends = simulator.forgettingFailedSends(failing, "m1");
    simulator.plan("m1", "a@x.test", false);
    simulator.plan("m1", "b@x.test", false);
    simulator.plan("m2", "c@x.test", false);
    await expect(sends.inSendTransaction(async () => undefined)).rejects.toThrow("rolled back");
    expect(simulator.pending).toBe(1);
    expect(simulator.outcomeFor("m2", "c@x.test")).toBe("delivered");
  });
});
