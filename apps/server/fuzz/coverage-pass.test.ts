import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { roundSeed, runCoveragePass } from "./coverage-pass.ts";

const operations = ["a", "b", "c"].map((operationId) => ({ operationId, drafts: fc.constant(operationId) }));

describe("runCoveragePass", () => {
  it("visits the operations round-robin, each round those without a 2xx and every fourth round all", async () => {
    const sent: string[] = [];
    const succeeded = new Set<string>();
    // a answers 2xx at once, b on its third request, c never.
    const outcome = await runCoveragePass(
      operations,
      (id) => succeeded.has(id),
      async (id) => {
        sent.push(id);
        if (id === "a" || (id === "b" && sent.filter((each) => each === "b").length === 3)) {
          succeeded.add(id);
        }
      },
      { seed: 1, rounds: 5, deadline: Number.POSITIVE_INFINITY },
    );
    expect(sent).toEqual(["a", "b", "c", "b", "c", "b", "c", "a", "b", "c", "c"]);
    expect(outcome).toEqual({ rounds: 5, requests: 11, cut: false, uncovered: ["c"] });
  });

  it("stops once every operation is covered, and says so when the deadline stops it first", async () => {
    const all = await runCoveragePass(
      operations,
      () => true,
      async () => {},
      {
        seed: 1,
        rounds: 40,
        deadline: Number.POSITIVE_INFINITY,
      },
    );
    expect(all).toEqual({ rounds: 0, requests: 0, cut: false, uncovered: [] });
    const late = await runCoveragePass(
      operations,
      () => false,
      async () => {},
      {
        seed: 1,
        rounds: 40,
        deadline: Number.NEGATIVE_INFINITY,
      },
    );
    expect(late).toEqual({ rounds: 1, requests: 0, cut: true, uncovered: ["a", "b", "c"] });
  });

  it("draws each round and place from a seed of its own, the same on every run", () => {
    const seeds = new Set<number>();
    for (let round = 0; round < 40; round++) {
      for (let index = 0; index < 70; index++) {
        seeds.add(roundSeed(20_261_125, round, index));
      }
    }
    expect(seeds.size).toBe(40 * 70);
    expect(roundSeed(7, 3, 5)).toBe(roundSeed(7, 3, 5));
  });
});
