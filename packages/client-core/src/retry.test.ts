import { describe, expect, it } from "vitest";
import { isRetryableStatus, parseRetryAfterMs, retryDelay, shouldRetry } from "./retry.js";

const noJitter = () => 0;

describe("isRetryableStatus", () => {
  it.each([408, 409, 429, 500, 502, 503, 504, 599])("retries %i", (status) => {
    expect(isRetryableStatus(status)).toBe(true);
  });

  it.each([200, 201, 204, 301, 400, 401, 403, 404, 413, 422])("does not retry %i", (status) => {
    expect(isRetryableStatus(status)).toBe(false);
  });
});

describe("shouldRetry", () => {
  const response = (status: number, headers: Record<string, string> = {}) =>
    new Response(null, { status, headers: new Headers(headers) });

  it("follows the status table without an override", () => {
    expect(shouldRetry(response(503))).toBe(true);
    expect(shouldRetry(response(404))).toBe(false);
  });

  it("lets x-should-retry: false veto a retryable status", () => {
    expect(shouldRetry(response(503, { "x-should-retry": "false" }))).toBe(false);
  });

  it("lets x-should-retry: true force a retry", () => {
    expect(shouldRetry(response(400, { "x-should-retry": "true" }))).toBe(true);
  });

  it("gives up when the server asks for a wait longer than 60 s", () => {
    expect(shouldRetry(response(429, { "retry-after": "7949" }))).toBe(false);
    expect(shouldRetry(response(503, { "retry-after-ms": "60001" }))).toBe(false);
    expect(shouldRetry(response(429, { "retry-after": "60" }))).toBe(true);
    expect(shouldRetry(response(429, { "retry-after": "7949", "x-should-retry": "true" }))).toBe(true);
  });

  it("ignores other x-should-retry values", () => {
    expect(shouldRetry(response(400, { "x-should-retry": "maybe" }))).toBe(false);
    expect(shouldRetry(response(503, { "x-should-retry": "1" }))).toBe(true);
  });
});

describe("retryDelay backoff", () => {
  it("doubles from 500 ms and caps at 8 s", () => {
    const schedule = [0, 1, 2, 3, 4, 5, 10].map((attempt) => retryDelay({ attempt, random: noJitter }));
    expect(schedule).toEqual([500, 1000, 2000, 4000, 8000, 8000, 8000]);
  });

  it("applies up to 25% jitter downwards", () => {
    expect(retryDelay({ attempt: 0, random: () => 0.5 })).toBe(437.5);
    expect(retryDelay({ attempt: 2, random: () => 0.999_999 })).toBeCloseTo(1500, 2);
    for (let i = 0; i < 200; i++) {
      const delay = retryDelay({ attempt: 1 });
      expect(delay).toBeGreaterThan(750);
      expect(delay).toBeLessThanOrEqual(1000);
    }
  });
});

describe("retryDelay with server hints", () => {
  const delayFor = (headers: Record<string, string>, attempt = 0) =>
    retryDelay({ attempt, headers: new Headers(headers), random: noJitter });

  it("reads Retry-After as seconds", () => {
    expect(delayFor({ "retry-after": "2" })).toBe(2000);
    expect(delayFor({ "retry-after": "0" })).toBe(0);
  });

  it("reads fractional Retry-After seconds", () => {
    expect(delayFor({ "retry-after": "0.1" })).toBe(100);
    expect(delayFor({ "retry-after": "1.5" })).toBe(1500);
  });

  it("reads Retry-After as an HTTP-date", () => {
    const inThirtySeconds = new Date(Date.now() + 30_000).toUTCString();
    const delay = delayFor({ "retry-after": inThirtySeconds });
    // HTTP-dates have whole-second resolution.
    expect(delay).toBeGreaterThan(28_000);
    expect(delay).toBeLessThanOrEqual(30_000);
  });

  it("prefers retry-after-ms over Retry-After", () => {
    expect(delayFor({ "retry-after-ms": "250" })).toBe(250);
    expect(delayFor({ "retry-after-ms": "250", "retry-after": "5" })).toBe(250);
  });

  it("uses Retry-After when retry-after-ms is invalid", () => {
    expect(delayFor({ "retry-after-ms": "soon", "retry-after": "3" })).toBe(3000);
  });

  it("falls back to backoff for invalid values", () => {
    expect(delayFor({ "retry-after": "soon" }, 1)).toBe(1000);
    expect(delayFor({ "retry-after": "10abc" }, 1)).toBe(1000);
    expect(delayFor({ "retry-after": "" }, 1)).toBe(1000);
    expect(delayFor({ "retry-after-ms": "Infinity" }, 1)).toBe(1000);
  });

  it("falls back to backoff for negative values and past dates", () => {
    expect(delayFor({ "retry-after": "-1" }, 2)).toBe(2000);
    expect(delayFor({ "retry-after-ms": "-100" }, 2)).toBe(2000);
    expect(delayFor({ "retry-after": new Date(Date.now() - 60_000).toUTCString() }, 2)).toBe(2000);
  });

  it("falls back to backoff above 60 s but honours exactly 60 s", () => {
    expect(delayFor({ "retry-after": "61" })).toBe(500);
    expect(delayFor({ "retry-after-ms": "60001" })).toBe(500);
    expect(delayFor({ "retry-after": new Date(Date.now() + 3_600_000).toUTCString() })).toBe(500);
    expect(delayFor({ "retry-after": "60" })).toBe(60_000);
  });

  it("falls back to backoff when no hint is present", () => {
    expect(delayFor({}, 3)).toBe(4000);
  });
});

describe("parseRetryAfterMs", () => {
  it("computes HTTP-dates against the given clock", () => {
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(parseRetryAfterMs(new Headers({ "retry-after": "Thu, 01 Jan 2026 00:00:07 GMT" }), now)).toBe(7000);
  });

  it("returns null without a usable header", () => {
    expect(parseRetryAfterMs(new Headers())).toBeNull();
    expect(parseRetryAfterMs(new Headers({ "retry-after": "never" }))).toBeNull();
  });
});
