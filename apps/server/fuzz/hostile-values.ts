// Values at and past the edges of what an API takes, shared by every generator of the fuzz suite.

/** Query and path texts that look numeric, or nearly: exponents, past 2^53 and 2^63, signs, other digits. */
export const NUMERIC_TEXTS = [
  "0",
  "-0",
  "1",
  "-1",
  "0.5",
  "1.0",
  "1e2",
  "1E2",
  "1e300",
  "-1e300",
  "1e400",
  "9007199254740991",
  "9007199254740992",
  "9007199254740993",
  "9223372036854775807",
  "9223372036854775808",
  "18446744073709551616",
  "1".repeat(400),
  "NaN",
  "Infinity",
  "-Infinity",
  "0x10",
  "0b1",
  "1_000",
  " 7",
  "7 ",
  "+7",
  "\u0663",
  "",
] as const;

/** JSON numbers written as text, so that the exact digits reach the server (`JSON.stringify` would round them). */
export const NUMBER_LITERALS = [
  "-0",
  "0.5",
  "-1",
  "1e300",
  "-1e300",
  "1e400",
  "1.0",
  "1E2",
  "9007199254740993",
  "9223372036854775808",
  "5e-324",
] as const;

/** What fits in a URL: a request line longer than the server's header limit (16 KiB) is refused before the API. */
const LONG_PARAMETER = "x".repeat(2_000);

/** Strings that are empty, long, not ASCII, or carry control and markup characters. */
export const HOSTILE_STRINGS = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "\u00e9",
  "\u65e5\u672c\u8a9e",
  "\u{1f642}",
  "\u202egnp.exe",
  "\ud800",
  "x".repeat(10_000),
  "\u00e9".repeat(5_000),
  "<script>alert(1)</script>",
  "' OR 1=1 --",
  "%00",
  "../../etc/passwd",
  "line\r\nX-Injected: 1",
  "null",
  "true",
  "0",
] as const;

/** The same, short enough for a path segment or a query value. */
export const HOSTILE_PARAMETERS = [...HOSTILE_STRINGS.filter((text) => text.length <= 1_000), LONG_PARAMETER] as const;

/** One value of each JSON type. */
export const JSON_TYPE_SAMPLES: readonly unknown[] = [null, true, 0, -1.5, "", "text", [], {}, [null], { a: 1 }];

/** Path segments written raw (not encoded again): broken escapes, encoded slashes and NULs, dots, long ones. */
export const RAW_PATH_SEGMENTS = [
  "%",
  "%ZZ",
  "%E0%A4%A",
  "%2F",
  "%2e%2e",
  "%00",
  "%3C%3E",
  "a%40b",
  "%20",
  "%C3%A9",
  "%F0%9F%99%82",
  "~",
  ".",
  "..",
  "x".repeat(3_000),
] as const;

/** Request bodies that are not one JSON document, or not the JSON an operation takes. */
export const MALFORMED_BODIES = [
  "{",
  '{"a":',
  "[]",
  "null",
  '"text"',
  "1",
  "{}{}",
  '{"a":1,}',
  "\ufeff{}",
  "nul",
  " ",
  "{'a': 1}",
  `${"[".repeat(5_000)}${"]".repeat(5_000)}`,
] as const;

/** Content types a client might send with a body; only the JSON ones are acceptable. */
export const CONTENT_TYPES = [
  "application/json",
  "application/json; charset=utf-8",
  "application/problem+json",
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  "application/jsonx",
] as const;

/** Strings that end in, start with or double the punctuation a name pattern may allow. */
export const PUNCTUATION_EDGES = ["trail.", "a..b", "a.", "a-", "a_", "a.-b", "0", "a--b", "a__b", ".a", "-a"] as const;

/** Addresses that a loose e-mail check takes and a strict one does not, and plain mistakes. */
export const ODD_ADDRESSES = [
  "not-an-address",
  "a..b@example.com",
  "trail.@example.com",
  ".lead@example.com",
  "x@localhost",
  "x@net",
  "@example.com",
  "a@",
  "a b@example.com",
  "ada@exa mple.com",
  "ADA@Example.COM",
  "\u00e9l\u00e8ve@example.com",
  "a@b@example.com",
  "Ada <ada@example.com>",
] as const;
