import { describe, expect, it } from "vitest";
import { reconcile } from "./reconcile.ts";

describe("reconcile", () => {
  it("confirms every expected item found once, in any order", () => {
    expect(reconcile(["a", "b", "c"], ["c", "a", "b"])).toEqual({
      confirmed: 3,
      missing: 0,
      doubled: 0,
      unexpected: 0,
    });
  });

  it("counts the expected items never found", () => {
    expect(reconcile(["a", "b", "c"], ["b"])).toEqual({ confirmed: 1, missing: 2, doubled: 0, unexpected: 0 });
  });

  it("counts each find beyond an item's first as doubled", () => {
    expect(reconcile(["a", "b"], ["a", "a", "a", "b", "b"])).toEqual({
      confirmed: 2,
      missing: 0,
      doubled: 3,
      unexpected: 0,
    });
  });

  it("keeps finds that were never expected apart, repeats included", () => {
    expect(reconcile(["a"], ["x", "a", "x"])).toEqual({ confirmed: 1, missing: 0, doubled: 0, unexpected: 2 });
  });

  it("expects each item once even when it is listed twice", () => {
    expect(reconcile(["a", "a"], ["a"])).toEqual({ confirmed: 1, missing: 0, doubled: 0, unexpected: 0 });
  });
});
