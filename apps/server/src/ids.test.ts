import { describe, expect, it } from "vitest";
import { randomBase62, randomLowerAlphanumeric } from "./ids.ts";

describe("random ids", () => {
  it("have the requested length, use the whole alphabet and do not repeat, across many refills of the pool", () => {
    const ids = Array.from({ length: 3000 }, () => randomBase62(16));
    expect(ids.every((id) => /^[0-9A-Za-z]{16}$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(ids.join("")).size).toBe(62);

    const names = Array.from({ length: 1000 }, () => randomLowerAlphanumeric(10));
    expect(names.every((name) => /^[0-9a-z]{10}$/.test(name))).toBe(true);
    expect(new Set(names.join("")).size).toBe(36);
  });
});
