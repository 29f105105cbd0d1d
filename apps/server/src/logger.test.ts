import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
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

describe("logProcessWarningsAndCrashes", () => {
  const LOGGER = fileURLToPath(new URL("./logger.ts", import.meta.url));

  /** Runs `body` in a process of its own whose logger took over Node's output; answers its status and stderr lines. */
  function runWithLogger(body: string, env: Record<string, string> = {}) {
    const script = [
      `import { createJsonLogger, logProcessWarningsAndCrashes } from ${JSON.stringify(LOGGER)};`,
      "logProcessWarningsAndCrashes(createJsonLogger());",
      body,
    ].join("\n");
    const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
      encoding: "utf8",
      env: { ...process.env, NODE_NO_WARNINGS: "0", ...env },
      timeout: 30_000,
    });
    const lines = run.stderr
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    return { status: run.status, lines };
  }

  it("writes Node's warnings and an uncaught exception as JSON lines, and still ends with status 1", () => {
    const { status, lines } = runWithLogger(
      'process.emitWarning("something odd", { code: "PH_ODD" });\nsetTimeout(() => { throw new Error("boom"); }, 10);',
    );
    expect(status).toBe(1);
    expect(lines).toEqual([
      expect.objectContaining({ level: "warn", msg: "node warning", warning: "something odd", code: "PH_ODD" }),
      expect.objectContaining({
        level: "error",
        msg: "fatal error",
        error: "boom",
        origin: "uncaughtException",
        stack: expect.stringContaining("Error: boom"),
      }),
    ]);
  });

  it("writes an unhandled rejection the same way, and leaves warnings out when they are turned off", () => {
    const { status, lines } = runWithLogger(
      'process.emitWarning("unseen");\nsetTimeout(() => { Promise.reject(new Error("lost")); }, 10);',
      { NODE_NO_WARNINGS: "1" },
    );
    expect(status).toBe(1);
    expect(lines).toEqual([
      expect.objectContaining({ level: "error", msg: "fatal error", error: "lost", origin: "unhandledRejection" }),
    ]);
  });
});
