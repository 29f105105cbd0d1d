import fc from "fast-check";

// Values for string formats beyond the obvious: ones a format takes but a careless check refuses (long labels,
// uppercase, odd but legal local parts), and ones that look right but are not (a one-letter or all-digit top-level
// label, a trailing dot, an IP address, a port past 65535), drawn strongly enough to find where a spec, its validator
// and the server disagree.

const label63 = "a".repeat(63);
const local64 = "l".repeat(64);

/** Host names that a strict reading takes, at their edges. */
const UNUSUAL_HOSTNAMES = [
  "EXAMPLE.COM",
  "Mixed-Case.Example.Org",
  `${label63}.example.com`,
  `${Array.from({ length: 4 }, () => label63).join(".")}.co`.slice(-253),
  "xn--bcher-kva.example",
  "a-b.c-d.example.museum",
  "1example.com",
  "sub.sub.sub.example.co.uk",
  "ex--ample.com",
];

/** Host names a schema validator may take and a strict reading does not. */
const SUBTLE_HOSTNAMES = [
  "i.i.tf.b",
  "example.123",
  "127.0.0.1",
  "1.2.3.4.5",
  "example.com.",
  "localhost",
  `${"a".repeat(64)}.com`,
  `${Array.from({ length: 5 }, () => label63).join(".")}.com`,
  "-example.com",
  "example-.com",
  "exa_mple.com",
  "exa mple.com",
  "ex\u00e4mple.com",
  "a..b.com",
  "example.c",
];

const UNUSUAL_LOCAL_PARTS = [
  "UPPER",
  "o'brien",
  "a+tag",
  "first.last",
  "x",
  "_",
  "{curly}",
  "#!$%&*=?^`|~",
  "1234",
  local64,
];

const SUBTLE_LOCAL_PARTS = [
  `${local64}x`,
  ".lead",
  "trail.",
  "a..b",
  '"quoted"',
  "sp ace",
  "\u00e9l\u00e8ve",
  "a(comment)",
  "a\\b",
];

const hostnameOrKnown = (known: readonly string[]) =>
  fc.oneof(
    fc.constantFrom(...known),
    fc.domain().map((domain) => domain.toUpperCase()),
  );

/** Addresses a strict reading takes: unusual local parts on unusual and known domains. */
export const unusualEmails = (domains: readonly string[]): fc.Arbitrary<string> =>
  fc.oneof(
    fc
      .tuple(fc.constantFrom(...UNUSUAL_LOCAL_PARTS), hostnameOrKnown([...UNUSUAL_HOSTNAMES, ...domains]))
      .map(([local, domain]) => `${local}@${domain}`)
      .filter((address) => address.length <= 254),
    fc.emailAddress(),
  );

/** Addresses one step from well-formed: one bad piece, the rest right. */
export const subtleEmails: fc.Arbitrary<string> = fc.oneof(
  fc
    .tuple(fc.constantFrom(...SUBTLE_LOCAL_PARTS), fc.constantFrom("example.com", "pigeonhole.test"))
    .map(([local, domain]) => `${local}@${domain}`),
  fc.constantFrom(...SUBTLE_HOSTNAMES).map((domain) => `ada@${domain}`),
  fc.constantFrom(
    "ada@[127.0.0.1]",
    "ada@example.com\n",
    "Ada <ada@example.com>",
    "ada@example.com, bob@example.com",
    `ada@${"a".repeat(250)}.com`,
    "ada@@example.com",
  ),
);

export const unusualHostnames = (domains: readonly string[]): fc.Arbitrary<string> =>
  fc.oneof(hostnameOrKnown([...UNUSUAL_HOSTNAMES, ...domains]), fc.domain());

export const subtleHostnames: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...SUBTLE_HOSTNAMES),
  fc.domain().map((domain) => `${domain}.`),
  fc.domain().map((domain) => `${domain}.9`),
);

export const unusualUris: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    "HTTPS://EXAMPLE.COM/Hook",
    "https://user:pass@example.com:8443/a/b?c=d#e",
    "http://127.0.0.1:65535/",
    "http://[::1]:8080/hook",
    "https://example.com/%7Euser/%E2%82%AC",
    "https://xn--bcher-kva.example/",
  ),
  fc.webUrl({ withQueryParameters: true, withFragments: true }),
);

export const subtleUris: fc.Arbitrary<string> = fc.constantFrom(
  "http://256.1.1.1/",
  "http://1.2.3.4.5/",
  "http://[::1]:99999/",
  "http://exa%00mple.com/",
  "http://example.com:0/",
  "https://exa mple.com/",
  "https:///no-host",
  "http://[fec0::1]/",
  "http://[64:ff9b:1::1]/",
  "http://[2002::1]/",
  "http://[::ffff:127.0.0.1]/",
  "javascript:alert(1)",
  "mailto:ada@example.com",
  "file:///etc/passwd",
  "https://example.com/\n",
);

export const unusualDateTimes: fc.Arbitrary<string> = fc.oneof(
  fc
    .date({ noInvalidDate: true, min: new Date(0), max: new Date("9999-12-31T23:59:59.999Z") })
    .map((date) => date.toISOString()),
  fc.constantFrom(
    "2026-11-22T09:30:00Z",
    "2026-11-22t09:30:00z",
    "2026-11-22T10:30:00+01:00",
    "2026-11-22T09:30:00.123456789Z",
    "2024-02-29T00:00:00.000Z",
  ),
);

export const subtleDateTimes: fc.Arbitrary<string> = fc.constantFrom(
  "2026-02-30T00:00:00Z",
  "2026-11-22T24:00:00Z",
  "2026-11-22 09:30:00Z",
  "2026-11-22T09:30:00",
  "2026-11-22",
  "+002026-11-22T09:30:00Z",
  "2026-11-22T09:30:00+25:00",
);

export const unusualUuids: fc.Arbitrary<string> = fc.oneof(
  fc.uuid().map((id) => id.toUpperCase()),
  fc.constantFrom("00000000-0000-0000-0000-000000000000", "ffffffff-ffff-ffff-ffff-ffffffffffff"),
);

export const subtleUuids: fc.Arbitrary<string> = fc.oneof(
  fc.uuid().map((id) => `urn:uuid:${id}`),
  fc.uuid().map((id) => `{${id}}`),
  fc.uuid().map((id) => id.replaceAll("-", "")),
  fc.uuid().map((id) => `${id.slice(0, -1)}g`),
);

const NEAR_MISSES: ReadonlyArray<(text: string) => string> = [
  (text) => `${text}\n`,
  (text) => text.toUpperCase(),
  (text) => `${text}.`,
  (text) => `-${text}`,
  (text) => `${text} `,
];

/**
 * A text that matches a pattern, changed in one small way that an engine with other line-end rules or a
 * case-insensitive check may still take: a trailing line feed, upper case, a trailing dot, a leading dash, a space.
 */
export const patternNearMisses = (matching: fc.Arbitrary<string>): fc.Arbitrary<string> =>
  fc.tuple(matching, fc.constantFrom(...NEAR_MISSES)).map(([text, change]) => change(text));
