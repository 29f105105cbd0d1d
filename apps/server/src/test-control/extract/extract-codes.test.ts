import { describe, expect, it } from "vitest";
import { codesInText, extractCodes } from "./extract-codes.ts";

describe("extractCodes", () => {
  it("finds the code of a verification mail with a button, once, from text and html", () => {
    const codes = extractCodes({
      text: "Your verification code is 482913.\n\nOr open https://app.example.com/verify?token=8f3c2a1b9d4e&n=123456",
      html:
        '<p>Your verification code is <b>482913</b>.</p><p><a href="https://app.example.com/verify?token=8f3c2a1b9d4e">' +
        'Verify</a></p><p style="color:#999999">\u00a9 2026 Example Inc., 1 Main St</p>',
    });
    expect(codes).toEqual(["482913"]);
  });

  it("finds a code on its own line of a plain-text mail", () => {
    const text = [
      "Hi Ada,",
      "",
      "Use this code to sign in:",
      "",
      "    730215",
      "",
      "It expires in 10 minutes (at 09:40 UTC on 2026-11-22).",
      "Call +1 (555) 123-4567 or 555 0199 if this was not you.",
      "-- ",
      "Example, Nov 22, 2026",
    ].join("\n");
    expect(extractCodes({ text, html: null })).toEqual(["730215"]);
  });

  it("finds upper-case codes with a digit, and the digits of a styled html code split into spans", () => {
    const html =
      '<div>Backup code: <span class="mono">K7Q2ZP9X</span></div>' +
      '<div style="font-size:32px"><span>48</span><span>29</span><span>13</span></div>';
    expect(extractCodes({ text: "Your reference is VERIFYNOW (not a code).", html })).toEqual(["K7Q2ZP9X", "482913"]);
  });

  it("reads a body with a long run of characters and no address in one pass", () => {
    // Looking for addresses from every character of the run took time quadratic in its length (hours for 1 MiB).
    const text = `Your code is 482913.\n${"a".repeat(1024 * 1024)}\nOr mail ada@example.com`;
    expect(extractCodes({ text, html: null })).toEqual(["482913"]);
  });

  it("decodes character references before looking", () => {
    expect(extractCodes({ text: null, html: "<p>Code&nbsp;&#52;&#56;29&#x31;3</p>" })).toEqual(["482913"]);
  });
});

describe("codesInText", () => {
  it.each([
    ["digits of 4 to 8", "a 1234 b 12345678", ["1234", "12345678"]],
    ["too short or too long", "123 123456789 1234567890", []],
    ["parts of words", "abc123456 123456abc order_123456", []],
    ["lower-case letters", "ab12cd34", []],
    ["upper-case without a digit", "ABCDEFG", []],
    ["upper-case too short or too long", "AB12C ABCDE12345X", []],
    ["in URLs and addresses", "https://x.test/123456 www.x.test/AB12CD user123456@x.test", []],
    ["dates", "2026-11-22 22/11/2026 22.11.2026 November 2026 Nov 22, 2026 \u00a9 2026", []],
    ["times and amounts", "09:30:00 $1234 1234\u20ac 1,234.56 12.5%", []],
    ["phone numbers", "+44 20 7946 0958, 1-800-555-0199, (555) 123-4567, 555.123.4567", []],
    ["references", "#123456 v2.1234 ID-987654", []],
    ["marked up", "**482913** (730215) [AB12CD] \u201c554433\u201d", ["482913", "730215", "AB12CD", "554433"]],
    ["after a label", "code:482913 Code: 730215", ["482913", "730215"]],
    ["at a sentence end", "Your code is 482913. Enter it now", ["482913"]],
    ["a year standing alone", "Since 2026 we send codes", ["2026"]],
  ])("%s", (_, text, expected) => {
    expect(codesInText(text)).toEqual(expected);
  });
});
