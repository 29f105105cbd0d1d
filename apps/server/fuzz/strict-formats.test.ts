import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { loadSpecBundle } from "../src/spec/spec-bundle.ts";
import { formattedValues } from "./format-locations.ts";
import { subtleEmails, unusualEmails } from "./format-values.ts";
import { strictFormatProblem } from "./strict-formats.ts";

describe("the strict reading of string formats", () => {
  it.each([
    ["email", "ada@example.com"],
    ["email", "O'Brien+tag@Mail.Example.CO.UK"],
    ["email", `${"l".repeat(64)}@example.com`],
    ["hostname", "xn--bcher-kva.example"],
    ["uri", "https://user:pass@example.com:8443/a?b#c"],
    ["date-time", "2024-02-29T23:59:60+01:00"],
    ["uuid", "00000000-0000-4000-8000-000000000001"],
  ])("takes the %s %j", (format, value) => {
    expect(strictFormatProblem(format, value)).toBeNull();
  });

  it.each([
    ["email", "x@i.i.tf.b"],
    ["email", "ada@example.123"],
    ["email", `${"l".repeat(65)}@example.com`],
    ["email", "ada@localhost"],
    ["email", "a..b@example.com"],
    ["hostname", "example.com."],
    ["hostname", `${"a".repeat(64)}.com`],
    ["uri", "http://256.1.1.1/"],
    ["uri", "http://[::1]:99999/"],
    ["uri", "http://exa%00mple.com/"],
    ["date-time", "2026-02-30T00:00:00Z"],
    ["uuid", "urn:uuid:00000000-0000-4000-8000-000000000001"],
  ])("refuses the %s %j", (format, value) => {
    expect(strictFormatProblem(format, value)).not.toBeNull();
  });

  it("is what the drawn values are judged by: unusual addresses pass, subtle ones fail", () => {
    fc.assert(
      fc.property(unusualEmails(["pigeonhole.test"]), (email) => strictFormatProblem("email", email) === null),
      { seed: 1, numRuns: 300 },
    );
    // Subtle host names and URLs also hold values only a rule beyond the format refuses (`localhost`, a private
    // IPv6 range), so only addresses are held to it.
    fc.assert(
      fc.property(subtleEmails, (email) => strictFormatProblem("email", email) !== null),
      { seed: 1, numRuns: 300 },
    );
  });

  it("finds the formatted strings of a value through references, alternatives and items", () => {
    const document = loadSpecBundle("inbox");
    const found = formattedValues(
      document,
      { $ref: "#/components/schemas/SendMessageRequest" },
      { to: "ada@example.com", reply_to: ["a@b.c", "d@e.fg"], subject: "not an address" },
    );
    expect(found.map(({ at, format }) => `${at} ${format}`).sort()).toEqual([
      "/reply_to/0 email",
      "/reply_to/1 email",
      "/to email",
    ]);
  });
});
