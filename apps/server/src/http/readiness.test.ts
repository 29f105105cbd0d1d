import { describe, expect, it } from "vitest";
import { recordingLogger } from "../../test/support/recording-logger.ts";
import { ManualClock } from "../../test/support/test-server.ts";
import type { DatabaseReadiness } from "../storage/schema-version.ts";
import { READINESS_FRESH_FOR_MS, Readiness } from "./readiness.ts";

const READY: DatabaseReadiness = { ready: true };
const DOWN: DatabaseReadiness = { ready: false, reason: "database", detail: "connect ECONNREFUSED 127.0.0.1:5432" };

/** A database check answered by the test: each call waits until `answer` is called for it. */
function heldCheck() {
  const waiting: ((found: DatabaseReadiness) => void)[] = [];
  let calls = 0;
  return {
    check: () =>
      new Promise<DatabaseReadiness>((resolve) => {
        calls++;
        waiting.push(resolve);
      }),
    get calls() {
      return calls;
    },
    answer(found: DatabaseReadiness) {
      for (const resolve of waiting.splice(0)) {
        resolve(found);
      }
    },
  };
}

function readinessOn(check: () => Promise<DatabaseReadiness>, answerWithinMs = 60_000) {
  const clock = new ManualClock();
  const { logger, lines } = recordingLogger();
  return { clock, lines, readiness: new Readiness({ check, clock, logger, answerWithinMs }) };
}

describe("Readiness", () => {
  it("gives concurrent probes one check, and its result until it is a second old", async () => {
    let calls = 0;
    const { readiness, clock } = readinessOn(async () => {
      calls++;
      return READY;
    });
    const answers = await Promise.all(Array.from({ length: 200 }, () => readiness.notReadyReason()));
    expect(new Set(answers)).toEqual(new Set([null]));
    expect(calls).toBe(1);

    clock.advance(READINESS_FRESH_FOR_MS - 1);
    expect(await readiness.notReadyReason()).toBeNull();
    expect(calls).toBe(1);
    clock.advance(1);
    expect(await readiness.notReadyReason()).toBeNull();
    expect(calls).toBe(2);
  });

  it("checks anew when the clock went back, rather than trusting a result of unknown age", async () => {
    let calls = 0;
    const { readiness, clock } = readinessOn(async () => {
      calls++;
      return READY;
    });
    await readiness.notReadyReason();
    clock.set(clock.now() - 3_600_000);
    await readiness.notReadyReason();
    expect(calls).toBe(2);
  });

  it("says why the database is not ready, and logs each change once, not each probe", async () => {
    const answers = [READY, DOWN, DOWN, { ready: false, reason: "migrations", detail: "behind" } as const, READY];
    const { readiness, clock, lines } = readinessOn(async () => answers.shift() ?? READY);
    const seen = [];
    for (let probe = 0; probe < 5; probe++) {
      seen.push(await readiness.notReadyReason());
      clock.advance(READINESS_FRESH_FOR_MS);
    }
    expect(seen).toEqual([null, "database", "database", "migrations", null]);
    expect(lines.map(({ level, msg, reason }) => [level, msg, reason])).toEqual([
      ["warn", "not ready", "database"],
      ["warn", "not ready", "migrations"],
      ["info", "ready", undefined],
    ]);
    expect(lines[0]).toMatchObject({ detail: DOWN.detail });
  });

  it("answers a check that throws as the database not answering", async () => {
    const { readiness } = readinessOn(() => Promise.reject(new Error("pool destroyed")));
    expect(await readiness.notReadyReason()).toBe("database");
  });

  it("answers `database` when the check does not answer in time, and starts no other check while it still runs", async () => {
    const held = heldCheck();
    const { readiness, clock, lines } = readinessOn(held.check, 20);
    expect(await readiness.notReadyReason()).toBe("database");
    expect(lines).toEqual([expect.objectContaining({ msg: "not ready", detail: "no answer within 20 ms" })]);

    // The hung check still runs: later probes are answered without piling another on it.
    clock.advance(READINESS_FRESH_FOR_MS);
    expect(await readiness.notReadyReason()).toBe("database");
    expect(held.calls).toBe(1);

    held.answer(READY);
    // Once the hung check has settled (its callbacks run), the next probe checks again.
    await new Promise((resolve) => setImmediate(resolve));
    clock.advance(READINESS_FRESH_FOR_MS);
    const next = readiness.notReadyReason();
    expect(held.calls).toBe(2);
    held.answer(READY);
    expect(await next).toBeNull();
  });

  it("answers `draining` from the start of a stop, at once and without a check, even to probes already waiting", async () => {
    const held = heldCheck();
    const { readiness } = readinessOn(held.check);
    const waiting = readiness.notReadyReason();
    expect(readiness.draining).toBe(false);
    readiness.startDraining();
    expect(readiness.draining).toBe(true);
    expect(await readiness.notReadyReason()).toBe("draining");
    held.answer(READY);
    expect(await waiting).toBe("draining");
    expect(held.calls).toBe(1);
  });
});
