import { describe, expect, it } from "vitest";
import { parseSmtpAddress } from "./smtp-address.ts";

const printed = (smtpLine: string) =>
  [
    "Pigeonhole server is running.",
    "",
    "  Inbox API  http://127.0.0.1:40101",
    "  Forum API  http://127.0.0.1:40102",
    smtpLine,
    "  Outbound   kept, not sent (no --smtp-relay)",
  ].join("\n");

describe("parseSmtpAddress", () => {
  it("reads the host and port of the SMTP line", () => {
    expect(parseSmtpAddress(printed("  SMTP       smtp://127.0.0.1:34567   mail for: pigeonhole.test"))).toEqual({
      host: "127.0.0.1",
      port: 34567,
    });
  });

  it("takes an IPv6 host out of its brackets", () => {
    expect(parseSmtpAddress(printed("  SMTP       smtp://[::1]:2525   mail for: a.test, b.test"))).toEqual({
      host: "::1",
      port: 2525,
    });
  });

  it("answers undefined until the line is printed, and when SMTP is off", () => {
    expect(parseSmtpAddress("  Inbox API  http://127.0.0.1:40101\n")).toBeUndefined();
    expect(parseSmtpAddress(printed(""))).toBeUndefined();
  });

  it("refuses an address without a port", () => {
    expect(() => parseSmtpAddress(printed("  SMTP       smtp://127.0.0.1   mail for: pigeonhole.test"))).toThrow(
      /without a port/,
    );
  });
});
