// A second opinion on string formats, stricter than a JSON Schema validator's and written from the RFCs, so that the
// fuzz suite notices a spec (and a server) taking a value no mail system or HTTP client would: `ada@example.123`,
// `x@i.i.tf.b`, `http://256.1.1.1/`, `urn:uuid:...` where a plain id is meant.

/** RFC 5322 `atext`, the characters of a dot-atom's pieces. */
const ATEXT = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+$/;
/** RFC 1123 section 2.1: letters, digits and hyphens, neither first nor last, 1 to 63 characters. */
const LDH_LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[Zz]|[+-](\d{2}):(\d{2}))$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Why `value` is not a host name, or null: LDH labels (RFC 1123), at most 253 characters, no trailing dot, and a
 * top-level label of two or more characters that is not all digits (RFC 3696 section 2; no one-letter top-level
 * domain exists).
 */
function hostnameProblem(value: string): string | null {
  if (value.length > 253) {
    return "longer than 253 characters";
  }
  const labels = value.split(".");
  if (labels.some((label) => !LDH_LABEL.test(label))) {
    return "a label that is empty, too long, or not letters, digits and inner hyphens";
  }
  const top = labels.at(-1) ?? "";
  if (top.length < 2 || /^\d+$/.test(top)) {
    return `the top-level label '${top}' is a single character or all digits`;
  }
  return null;
}

/** RFC 5321 section 4.1.2 `Mailbox` with a dot-atom local part of at most 64 characters, 254 in all (RFC 3696). */
function emailProblem(value: string): string | null {
  const at = value.lastIndexOf("@");
  if (at <= 0) {
    return "no local part and domain";
  }
  const local = value.slice(0, at);
  const domain = value.slice(at + 1);
  if (value.length > 254 || local.length > 64) {
    return "longer than 254 characters, or a local part longer than 64";
  }
  if (!local.split(".").every((piece) => ATEXT.test(piece))) {
    return "a local part that is not a dot-atom";
  }
  if (!domain.includes(".")) {
    return "a domain of one label";
  }
  return hostnameProblem(domain);
}

function uriProblem(value: string): string | null {
  if (
    [...value].some(
      (character) => /\s/.test(character) || (character.codePointAt(0) ?? 0) < 0x20 || character === "\u007f",
    )
  ) {
    return "white space or a control character";
  }
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:/.test(value)) {
    return "no scheme";
  }
  // The WHATWG parser refuses what an HTTP client cannot reach: 256.1.1.1, five-part IPv4, ports past 65535, a NUL.
  return URL.canParse(value) ? null : "an address an HTTP client cannot parse";
}

function dateTimeProblem(value: string): string | null {
  const parts = RFC3339.exec(value);
  if (parts === null) {
    return "not an RFC 3339 date-time";
  }
  const [year, month, day, hour, minute, second] = parts.slice(1, 7).map(Number) as number[];
  const date = new Date(Date.UTC(year as number, (month as number) - 1, day as number));
  const sameDay = date.getUTCMonth() === (month as number) - 1 && date.getUTCDate() === day;
  if (!sameDay || (hour as number) > 23 || (minute as number) > 59 || (second as number) > 60) {
    return "a day or time of day that does not exist";
  }
  return null;
}

const PROBLEMS: Record<string, (value: string) => string | null> = {
  email: emailProblem,
  hostname: hostnameProblem,
  uri: uriProblem,
  "date-time": dateTimeProblem,
  uuid: (value) => (UUID.test(value) ? null : "not the 8-4-4-4-12 hexadecimal form (RFC 9562)"),
};

/** Why `value` does not have `format` by the strict reading, or null when it does (or the format is not judged). */
export function strictFormatProblem(format: string, value: string): string | null {
  return PROBLEMS[format]?.(value) ?? null;
}
