import { describe, expect, it } from "vitest";
import { addressOf } from "./format.ts";

describe("addressOf", () => {
  it("takes the address in angle brackets, or the bare address", () => {
    expect(addressOf("Ada Lovelace <ada@example.com>")).toBe("ada@example.com");
    expect(addressOf(" ada@example.com ")).toBe("ada@example.com");
  });

  it("reads a sender-chosen run of '<' in one pass", () => {
    // A pattern that let `<` inside the brackets backtracked over every start: 80,000 characters took 43 s.
    const hostile = `${"<".repeat(200_000)}x`;
    expect(addressOf(hostile)).toBe(hostile);
  });
});
