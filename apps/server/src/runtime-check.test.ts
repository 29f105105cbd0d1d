import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { assertSupportedNode, requiredNodeRange, UnsupportedNodeError } from "./runtime-check.ts";

const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
  engines: { node: string };
};

describe("the Node version check", () => {
  it("requires exactly the versions the package's engines field names", () => {
    expect(requiredNodeRange()).toBe(manifest.engines.node);
  });

  it("accepts this Node", () => {
    expect(() => assertSupportedNode()).not.toThrow();
  });

  it("refuses an older Node with a message naming the required version", () => {
    expect(() => assertSupportedNode("20.20.2")).toThrow(UnsupportedNodeError);
    expect(() => assertSupportedNode("22.22.0")).toThrow(
      `@pigeonhole/server needs Node.js ${manifest.engines.node}, but this is Node.js 22.22.0. ` +
        "Install Node.js 24.0.0 or newer and run it again.",
    );
    expect(() => assertSupportedNode("24.0.0")).not.toThrow();
  });
});
