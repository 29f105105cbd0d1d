import { describe, expect, it } from "vitest";
import { percentile } from "./percentile.ts";

describe("percentile", () => {
  it("answers the nearest-rank value, whatever the order of the values", () => {
    const values = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(percentile(values, 50)).toBe(50);
    expect(percentile(values, 99)).toBe(99);
    expect(percentile(values, 100)).toBe(100);
    expect(percentile(values, 0.5)).toBe(1);
  });

  it("rounds the rank up, so that a few slow values show at p99 of a small sample", () => {
    expect(percentile([1, 2, 3, 40], 50)).toBe(2);
    expect(percentile([1, 2, 3, 40], 99)).toBe(40);
    expect(percentile([7], 1)).toBe(7);
  });

  it("does not reorder the values it is given", () => {
    const values = [3, 1, 2];
    percentile(values, 50);
    expect(values).toEqual([3, 1, 2]);
  });

  it("answers NaN for no values and refuses a percentage out of range", () => {
    expect(percentile([], 50)).toBeNaN();
    expect(() => percentile([1], 0)).toThrow(RangeError);
    expect(() => percentile([1], 101)).toThrow(RangeError);
  });
});
