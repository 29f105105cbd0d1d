import { describe, expect, it } from "vitest";
import { overtakes } from "./rank-moves.ts";

describe("overtakes", () => {
  it("counts the posts a risen post passed, and nothing for those it pushed down", () => {
    expect(overtakes(["p7", "p6", "p5", "p4", "p3"], ["p3", "p7", "p6", "p5", "p4"])).toEqual(new Map([["p3", 4]]));
  });

  it("counts a move for every post that passed one that fell", () => {
    expect(overtakes(["p3", "p7", "p6"], ["p7", "p6", "p3"])).toEqual(
      new Map([
        ["p7", 1],
        ["p6", 1],
      ]),
    );
  });

  it("moves nobody for a new post on top, a deleted one above, or an unchanged order", () => {
    expect(overtakes(["p2", "p1"], ["new", "p2", "p1"])).toEqual(new Map());
    expect(overtakes(["gone", "p2", "p1"], ["p2", "p1", "p0"])).toEqual(new Map());
    expect(overtakes(["p2", "p1"], ["p2", "p1"])).toEqual(new Map());
  });
});
