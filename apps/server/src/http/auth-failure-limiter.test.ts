import { describe, expect, it } from "vitest";
import { ManualClock } from "../../test/support/test-server.ts";
import { AuthFailureLimiter, clientOfAddress, MAX_TRACKED_ADDRESSES } from "./auth-failure-limiter.ts";

describe("clientOfAddress", () => {
  it("keeps IPv4 addresses and names an IPv6 address by its /64, however it is written", () => {
    expect(clientOfAddress("203.0.113.7")).toBe("203.0.113.7");
    expect(clientOfAddress("unknown")).toBe("unknown");
    expect(clientOfAddress("2001:db8:1:2::1")).toBe("2001:db8:1:2::/64");
    expect(clientOfAddress("2001:0DB8:0001:0002:ffff:0:0:9")).toBe("2001:db8:1:2::/64");
    expect(clientOfAddress("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(clientOfAddress("::1")).toBe("0:0:0:0::/64");
    expect(clientOfAddress("fe80::1:2:3:4")).toBe("fe80:0:0:0::/64");
  });
});

describe("AuthFailureLimiter", () => {
  it("refuses an address from its limit on, until its minute ends", () => {
    const clock = new ManualClock(Date.parse("2026-11-22T09:30:10.000Z"));
    const limiter = new AuthFailureLimiter(2, clock);
    expect(limiter.check("203.0.113.7").limited).toBe(false);
    limiter.record("203.0.113.7");
    limiter.record("203.0.113.7");
    expect(limiter.check("203.0.113.7")).toMatchObject({ limited: true, remaining: 0, retryAfterSeconds: 50 });
    expect(limiter.check("203.0.113.8").limited).toBe(false);
    clock.advance(50_000);
    expect(limiter.check("203.0.113.7").limited).toBe(false);
  });

  it("remembers a bounded number of addresses, however many fail", () => {
    const limiter = new AuthFailureLimiter(1, new ManualClock());
    for (let i = 0; i < MAX_TRACKED_ADDRESSES * 2; i++) {
      limiter.record(`10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`);
    }
    expect(limiter.trackedAddresses).toBe(MAX_TRACKED_ADDRESSES);
    // The most recent are still refused.
    expect(limiter.check("10.0.78.31").limited).toBe(true);
  });
});
