import { describe, expect, it } from "vitest";
import { CLIENT_HEADER, clientHeaders, mergeHeaders } from "./headers.js";

describe("mergeHeaders", () => {
  it("lets later sources win, case-insensitively", () => {
    const headers = mergeHeaders({ Accept: "text/plain", "X-A": "1" }, { accept: "application/json" });
    expect(headers.get("accept")).toBe("application/json");
    expect(headers.get("x-a")).toBe("1");
  });

  it("deletes a header given null and skips undefined", () => {
    const headers = mergeHeaders({ "x-a": "1", "x-b": "2" }, { "X-A": null, "x-b": undefined });
    expect(headers.has("x-a")).toBe(false);
    expect(headers.get("x-b")).toBe("2");
  });

  it("accepts Headers, tuples and nullish sources", () => {
    const headers = mergeHeaders(new Headers({ "x-a": "1" }), null, [["x-b", "2"]], undefined);
    expect(Object.fromEntries(headers)).toEqual({ "x-a": "1", "x-b": "2" });
  });
});

describe("clientHeaders", () => {
  it("identifies the client without User-Agent", () => {
    expect(clientHeaders("@pigeonhole/inbox", "0.1.0")).toEqual({ [CLIENT_HEADER]: "@pigeonhole/inbox/0.1.0" });
    expect(CLIENT_HEADER).toBe("x-pigeonhole-client");
  });
});
