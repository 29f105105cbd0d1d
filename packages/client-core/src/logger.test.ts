import { afterEach, describe, expect, it, vi } from "vitest";
import { createLogger, type Logger, redactHeaders, redactUrl } from "./logger.js";

function recordingLogger() {
  const lines: [level: string, message: string, data?: Record<string, unknown>][] = [];
  const record =
    (level: string) =>
    (...args: [message: string, data?: Record<string, unknown>]) =>
      lines.push([level, ...args]);
  const logger: Logger = { debug: record("debug"), info: record("info"), warn: record("warn"), error: record("error") };
  return { lines, logger };
}

function logAll(logger: Logger) {
  logger.debug("d");
  logger.info("i");
  logger.warn("w", { n: 1 });
  logger.error("e");
}

describe("createLogger", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("passes warn and error by default", () => {
    const { lines, logger } = recordingLogger();
    logAll(createLogger(logger, undefined));
    expect(lines).toEqual([
      ["warn", "w", { n: 1 }],
      ["error", "e"],
    ]);
  });

  it("passes everything at debug", () => {
    const { lines, logger } = recordingLogger();
    logAll(createLogger(logger, "debug"));
    expect(lines.map(([level]) => level)).toEqual(["debug", "info", "warn", "error"]);
  });

  it("filters below info", () => {
    const { lines, logger } = recordingLogger();
    logAll(createLogger(logger, "info"));
    expect(lines.map(([level]) => level)).toEqual(["info", "warn", "error"]);
  });

  it("passes nothing when off", () => {
    const { lines, logger } = recordingLogger();
    logAll(createLogger(logger, "off"));
    expect(lines).toEqual([]);
  });

  it("defaults to the console with a prefix", () => {
    const warn = vi.spyOn(globalThis.console, "warn").mockImplementation(() => undefined);
    const debug = vi.spyOn(globalThis.console, "debug").mockImplementation(() => undefined);
    const logger = createLogger(undefined, "warn");
    logger.warn("careful", { id: 1 });
    logger.debug("hidden");
    expect(warn).toHaveBeenCalledWith("[pigeonhole] careful", { id: 1 });
    expect(debug).not.toHaveBeenCalled();
  });
});

describe("redactHeaders", () => {
  it("hides credentials and keeps the rest", () => {
    const headers = new Headers({
      Authorization: "Bearer sk_live_123",
      "Proxy-Authorization": "Basic abc",
      "api-key": "k1",
      "X-API-Key": "k2",
      Cookie: "session=s",
      "Set-Cookie": "session=s",
      "X-Webhook-Secret": "whsec_1",
      "X-CSRF-Token": "t",
      "Content-Type": "application/json",
      "Idempotency-Key": "8c3e",
    });
    expect(redactHeaders(headers)).toEqual({
      authorization: "***",
      "proxy-authorization": "***",
      "api-key": "***",
      "x-api-key": "***",
      cookie: "***",
      "set-cookie": "***",
      "x-webhook-secret": "***",
      "x-csrf-token": "***",
      "content-type": "application/json",
      "idempotency-key": "8c3e",
    });
  });
});

describe("redactUrl", () => {
  it("hides credential-like query parameters only", () => {
    expect(redactUrl("https://api.test/v0/ws?api_key=sk_1&inbox=a&access_token=t")).toBe(
      "https://api.test/v0/ws?api_key=***&inbox=a&access_token=***",
    );
    expect(redactUrl("https://api.test/v0/inboxes?limit=10")).toBe("https://api.test/v0/inboxes?limit=10");
    expect(redactUrl("not a url")).toBe("not a url");
  });
});
