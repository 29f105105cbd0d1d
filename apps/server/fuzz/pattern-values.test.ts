import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { stringsMatching, withoutLookarounds } from "./pattern-values.ts";

describe("drawing from patterns with lookarounds", () => {
  it("draws texts the whole pattern takes", () => {
    const pattern = /^(?=[^@]{1,4}@)[a-z]+@[a-z]+\.(?![0-9]+$)[a-z0-9]{2,3}$/;
    expect(withoutLookarounds(pattern.source)).toBe("^[a-z]+@[a-z]+\\.[a-z0-9]{2,3}$");
    fc.assert(
      fc.property(stringsMatching(pattern), (text) => pattern.test(text)),
      { seed: 1, numRuns: 100 },
    );
  });
});
