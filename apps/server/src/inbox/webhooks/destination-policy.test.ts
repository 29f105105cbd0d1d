import { describe, expect, it } from "vitest";
import { DestinationRefusedError, enforceDestinationPolicy, isNonPublicAddress } from "./destination-policy.ts";

describe("isNonPublicAddress", () => {
  it.each([
    "127.0.0.1",
    "127.255.0.9",
    "10.1.2.3",
    "172.16.0.1",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "0.0.0.0",
    "224.0.0.1",
    "255.255.255.255",
    "::1",
    "::",
    "fd00::1",
    "fe80::1",
    "ff02::1",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "::ffff:10.0.0.1",
    "64:ff9b::7f00:1",
  ])("refuses %s", (address) => {
    expect(isNonPublicAddress(address)).toBe(true);
  });

  it.each([
    "8.8.8.8",
    "93.184.215.14",
    "1.1.1.1",
    "172.32.0.1",
    "2606:4700:4700::1111",
    "2001:4860:4860::8888",
    "::ffff:8.8.8.8",
  ])("accepts the public address %s", (address) => {
    expect(isNonPublicAddress(address)).toBe(false);
  });

  it("does not judge what is not an IP address", () => {
    expect(isNonPublicAddress("localhost")).toBe(false);
  });
});

describe("enforceDestinationPolicy", () => {
  it("refuses when any address is non-public, naming the host and the address", () => {
    expect(() => enforceDestinationPolicy("hooks.example.com", ["93.184.215.14", "10.0.0.7"], false)).toThrow(
      new DestinationRefusedError(
        "hooks.example.com is a private or loopback address (10.0.0.7); start the server with --allow-private-webhooks to deliver there.",
      ),
    );
  });

  it("passes public addresses, and anything when private destinations are allowed", () => {
    expect(() => enforceDestinationPolicy("hooks.example.com", ["93.184.215.14", "2606:4700::1"], false)).not.toThrow();
    expect(() => enforceDestinationPolicy("localhost:4000", ["127.0.0.1", "::1"], true)).not.toThrow();
  });
});
