import { afterEach, describe, expect, it, vi } from "vitest";
import { createJsonLogger, warningsAndErrors } from "./logger.ts";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("createJsonLogger", () => {
  it("writes one JSON object per line", () => {
    const lines: string[] = [];
    const logger = createJsonLogger((line) => lines.push(line));
    logger.warn("slow request", { duration_ms: 812.5, path: "/v0/inboxes" });
    expect(lines).toHaveLength(1);
    expect(lines[0]?.endsWith("\n")).toBe(true);
    expect(JSON.parse(lines[0] ?? "")).toEqual({
      time: expect.stringMatching(/Z$/),
      level: "warn",
      msg: "slow request",
      duration_ms: 812.5,
      path: "/v0/inboxes",
    });
  });

  it("writes the lines of one turn of the event loop to stderr together, after it", async () => {
    const write = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    const logger = createJsonLogger();
    logger.info("first");
    logger.error("second", { request_id: "req_1" });
    expect(write).not.toHaveBeenCalled();

    await new Promise((resolve) => setImmediate(resolve));
    expect(write).toHaveBeenCalledTimes(1);
    const lines = String(write.mock.calls[0]?.[0]).trimEnd().split("\n");
    expect(lines.map((line) => JSON.parse(line).msg)).toEqual(["first", "second"]);

    logger.info("third");
    await new Promise((resolve) => setImmediate(resolve));
    expect(write).toHaveBeenCalledTimes(2);
  });
});

describe("warningsAndErrors", () => {
  it("drops info lines and keeps warnings and errors", () => {
    const lines: string[] = [];
    const logger = warningsAndErrors(createJsonLogger((line) => lines.push(line)));
    logger.info("request");
    logger.warn("database connection lost");
    logger.error("unexpected error");
    expect(lines.map((line) => JSON.parse(line).level)).toEqual(["warn", "error"]);
  });
});
