import { describe, expect, it } from "vitest";
import { DEFAULT_PORT, resolvePort } from "./serve.ts";

describe("resolvePort", () => {
  it("defaults to 4300", () => {
    expect(resolvePort([], {})).toBe(DEFAULT_PORT);
    expect(DEFAULT_PORT).toBe(4300);
  });

  it("takes PORT from the environment", () => {
    expect(resolvePort([], { PORT: "5000" })).toBe(5000);
  });

  it("prefers --port, in either spelling, over PORT", () => {
    expect(resolvePort(["--port", "0"], { PORT: "5000" })).toBe(0);
    expect(resolvePort(["--port=4301"], { PORT: "5000" })).toBe(4301);
  });

  it("rejects a port that is not one", () => {
    expect(() => resolvePort(["--port", "http"], {})).toThrow('Invalid port "http"');
    expect(() => resolvePort([], { PORT: "70000" })).toThrow(RangeError);
  });
});
