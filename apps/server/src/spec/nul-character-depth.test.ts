import { describe, expect, it } from "vitest";
import { findNulCharacter } from "./nul-character.ts";

/** An object `levels` deep: `{"a": {"a": ... value}}`. */
function deep(levels: number, value: unknown): unknown {
  let built = value;
  for (let i = 0; i < levels; i++) {
    built = { a: built };
  }
  return built;
}

describe("findNulCharacter", () => {
  it("walks a value of any depth without exhausting the call stack", () => {
    expect(findNulCharacter("body", deep(100_000, "clean"))).toBeNull();
    expect(findNulCharacter("body", deep(100_000, "NUL\u0000"))?.field).toBe(Array(100_000).fill("a").join("."));
  });

  it("names the first offending field in document order, keys before their values", () => {
    const issue = findNulCharacter("body", { list: ["ok", { "k\u0000": "x", other: "y\u0000" }], last: "z\u0000" });
    expect(issue?.field).toBe("list.1.k\u0000");
    expect(findNulCharacter("body", { a: "ok", b: ["x", "y\u0000"] })?.field).toBe("b.1");
    expect(findNulCharacter("body", "top\u0000")).toMatchObject({ field: null, code: "INVALID_VALUE" });
  });
});
