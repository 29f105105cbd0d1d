import { isIPv6 } from "node:net";
import { LRUCache } from "lru-cache";
import type { Clock } from "../clock.ts";
import type { RateLimitState } from "./rate-limiter.ts";

/** Addresses whose failures are remembered at once; past this, the least recently seen is forgotten. */
export const MAX_TRACKED_ADDRESSES = 10_000;

const WINDOW_MS = 60_000;

/**
 * The part of an address that names one client: an IPv6 client commonly holds a whole /64, so its first four groups;
 * an IPv4 address (or anything else) as it is.
 */
export function clientOfAddress(address: string): string {
  // Every IPv6 address has a colon; the check spares IPv4 addresses `isIPv6`'s long regular expression.
  if (!address.includes(":") || !isIPv6(address)) {
    return address;
  }
  const [head = "", tail] = address.toLowerCase().split("::");
  const headGroups = head === "" ? [] : head.split(":");
  const tailGroups = tail === undefined || tail === "" ? [] : tail.split(":");
  const missing = Array.from({ length: Math.max(0, 8 - headGroups.length - tailGroups.length) }, () => "0");
  const groups = tail === undefined ? headGroups : [...headGroups, ...missing, ...tailGroups];
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}

/**
 * Counts requests refused for a missing or invalid key per client address, in fixed one-minute windows aligned to
 * the clock; an address that reached `limit` failures is refused (429) until its window ends, before its key costs a
 * hash or a lookup. The counts live in this process, in a map of at most {@link MAX_TRACKED_ADDRESSES} addresses:
 * each request costs one map operation, and a flood from many addresses only pushes out the least recent ones. With
 * several instances each counts its own.
 */
export class AuthFailureLimiter {
  readonly #limit: number;
  readonly #clock: Clock;
  readonly #windows = new LRUCache<string, { start: number; count: number }>({ max: MAX_TRACKED_ADDRESSES });

  constructor(limit: number, clock: Clock) {
    this.#limit = limit;
    this.#clock = clock;
  }

  /** How many addresses (or IPv6 /64s) are remembered now: never more than {@link MAX_TRACKED_ADDRESSES}. */
  get trackedAddresses(): number {
    return this.#windows.size;
  }

  /** Where the address stands, without counting anything. */
  check(address: string): RateLimitState {
    const now = this.#clock.now();
    const start = now - (now % WINDOW_MS);
    const window = this.#windows.get(clientOfAddress(address));
    const count = window?.start === start ? window.count : 0;
    const resetMs = start + WINDOW_MS;
    return {
      limit: this.#limit,
      unit: "failed authentications",
      per: "minute",
      remaining: Math.max(0, this.#limit - count),
      resetAt: Math.ceil(resetMs / 1000),
      limited: count >= this.#limit,
      retryAfterSeconds: Math.max(1, Math.ceil((resetMs - now) / 1000)),
    };
  }

  /** Counts one request from the address refused for its key. */
  record(address: string): void {
    const now = this.#clock.now();
    const start = now - (now % WINDOW_MS);
    const client = clientOfAddress(address);
    const window = this.#windows.get(client);
    if (window?.start === start) {
      window.count += 1;
    } else {
      this.#windows.set(client, { start, count: 1 });
    }
  }
}
