import { PigeonholeError } from "@pigeonhole/client-core";
import type { WebhookEvent } from "@pigeonhole/inbox-types";

/** Why a delivery was rejected; branch on this rather than on the message. */
export type WebhookVerificationFailure =
  | "missing_header"
  | "invalid_timestamp"
  | "timestamp_too_old"
  | "timestamp_too_new"
  | "invalid_secret"
  | "invalid_signature"
  | "invalid_payload";

/** A webhook delivery that must not be trusted: its headers, age, signature or body are wrong. */
export class WebhookVerificationError extends PigeonholeError {
  override name = "WebhookVerificationError";
  readonly reason: WebhookVerificationFailure;

  constructor(reason: WebhookVerificationFailure, message: string) {
    super(message);
    this.reason = reason;
  }
}

/** Request headers as a Fetch `Headers` (Request.headers) or a plain object (Node's `req.headers`). */
export type WebhookHeaders = Headers | Readonly<Record<string, string | readonly string[] | undefined>>;

export interface VerifyWebhookOptions {
  /** How far the delivery's timestamp may be from the clock, either way, in seconds. Default 300 (5 minutes). */
  toleranceSeconds?: number;
  /** The time to check the timestamp against, as a Date or epoch milliseconds. Default: now. */
  now?: Date | number;
}

export const DEFAULT_WEBHOOK_TOLERANCE_SECONDS = 300;

const SECRET_PREFIX = "whsec_";

/**
 * Verifies a webhook delivery signed as Standard Webhooks (the scheme Svix uses) and returns its event.
 *
 * Pass the body exactly as received (a string or the raw bytes, never re-serialised JSON), the request headers
 * (`webhook-id`, `webhook-timestamp`, `webhook-signature`, or their `svix-*` names) and the webhook's `secret`
 * (`whsec_...`). Uses WebCrypto, so it runs in Node, browsers and edge runtimes.
 *
 * @throws {WebhookVerificationError} when a header is missing, the timestamp is outside the tolerance, no signature
 * matches, or the body is not an event.
 */
export async function verifyWebhook(
  rawBody: string | Uint8Array | ArrayBuffer,
  headers: WebhookHeaders,
  secret: string,
  options: VerifyWebhookOptions = {},
): Promise<WebhookEvent> {
  const { id, timestamp, signature } = readSignatureHeaders(headers);
  checkTimestamp(timestamp, options);
  const key = await importSecret(secret);

  const encoder = new TextEncoder();
  const body = typeof rawBody === "string" ? encoder.encode(rawBody) : new Uint8Array(rawBody);
  // The timestamp is signed as sent, not as re-formatted from the parsed number.
  const prefix = encoder.encode(`${id}.${timestamp}.`);
  const signed = new Uint8Array(prefix.length + body.length);
  signed.set(prefix);
  signed.set(body, prefix.length);
  const expected = new Uint8Array(await globalThis.crypto.subtle.sign("HMAC", key, signed));

  if (!candidateSignatures(signature).some((candidate) => constantTimeEqual(candidate, expected))) {
    throw new WebhookVerificationError(
      "invalid_signature",
      "No webhook signature matches: check the secret, and pass the raw request body, not re-serialised JSON.",
    );
  }
  return parseEvent(body);
}

function readSignatureHeaders(headers: WebhookHeaders): { id: string; timestamp: string; signature: string } {
  const get = headerReader(headers);
  for (const prefix of ["webhook", "svix"]) {
    const id = get(`${prefix}-id`);
    const timestamp = get(`${prefix}-timestamp`);
    const signature = get(`${prefix}-signature`);
    if (id !== undefined && timestamp !== undefined && signature !== undefined) {
      return { id, timestamp, signature };
    }
  }
  const missing = ["id", "timestamp", "signature"].filter((name) => get(`webhook-${name}`) === undefined);
  throw new WebhookVerificationError(
    "missing_header",
    `Missing webhook header ${missing.map((name) => `webhook-${name}`).join(", ")} (and no complete svix-* set).`,
  );
}

/** A case-insensitive lookup over either kind of headers; repeated values are joined with spaces. */
function headerReader(headers: WebhookHeaders): (name: string) => string | undefined {
  if (headers instanceof Headers) {
    return (name) => nonEmpty(headers.get(name));
  }
  const lowered = new Map<string, string>();
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) {
      lowered.set(name.toLowerCase(), typeof value === "string" ? value : value.join(" "));
    }
  }
  return (name) => nonEmpty(lowered.get(name));
}

function nonEmpty(value: string | null | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === "" ? undefined : trimmed;
}

function checkTimestamp(timestamp: string, options: VerifyWebhookOptions): void {
  if (!/^\d{1,12}$/.test(timestamp)) {
    throw new WebhookVerificationError(
      "invalid_timestamp",
      `Invalid webhook timestamp ${JSON.stringify(timestamp)}: expected Unix seconds.`,
    );
  }
  const tolerance = options.toleranceSeconds ?? DEFAULT_WEBHOOK_TOLERANCE_SECONDS;
  if (!(Number.isFinite(tolerance) && tolerance >= 0)) {
    throw new RangeError(`toleranceSeconds must be a non-negative number, got ${tolerance}`);
  }
  const seconds = Number(timestamp);
  const now = Math.floor(Number(options.now ?? Date.now()) / 1000);
  if (now - seconds > tolerance) {
    throw new WebhookVerificationError(
      "timestamp_too_old",
      `Webhook timestamp is ${now - seconds} s old, more than the ${tolerance} s allowed; it may be a replay.`,
    );
  }
  if (seconds - now > tolerance) {
    throw new WebhookVerificationError(
      "timestamp_too_new",
      `Webhook timestamp is ${seconds - now} s in the future, more than the ${tolerance} s allowed; check the clock.`,
    );
  }
}

async function importSecret(secret: string): Promise<CryptoKey> {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  const bytes = decodeBase64(encoded);
  if (bytes === undefined || bytes.length === 0) {
    throw new WebhookVerificationError(
      "invalid_secret",
      "Invalid webhook secret: expected the webhook's `secret`, `whsec_` followed by base64.",
    );
  }
  return globalThis.crypto.subtle.importKey("raw", bytes, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
}

/** The decoded `v1` signatures of a `v1,<base64> v1,<base64>` header; other versions and malformed entries are skipped. */
function candidateSignatures(header: string): Uint8Array[] {
  const candidates: Uint8Array[] = [];
  for (const entry of header.split(" ")) {
    const comma = entry.indexOf(",");
    if (comma === -1 || entry.slice(0, comma) !== "v1") {
      continue;
    }
    const bytes = decodeBase64(entry.slice(comma + 1));
    if (bytes !== undefined) {
      candidates.push(bytes);
    }
  }
  return candidates;
}

/** Compares in time that depends only on the length, so a forger learns nothing from how long a rejection takes. */
function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) {
    return false;
  }
  let difference = 0;
  for (let i = 0; i < a.length; i++) {
    difference |= (a[i] ?? 0) ^ (b[i] ?? 0);
  }
  return difference === 0;
}

function decodeBase64(text: string): Uint8Array<ArrayBuffer> | undefined {
  try {
    const binary = atob(text);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) {
      bytes[i] = binary.charCodeAt(i);
    }
    return bytes;
  } catch {
    return undefined;
  }
}

function parseEvent(body: Uint8Array): WebhookEvent {
  let event: unknown;
  try {
    event = JSON.parse(new TextDecoder().decode(body));
  } catch {
    throw new WebhookVerificationError("invalid_payload", "The webhook body is signed but is not valid JSON.");
  }
  if (
    typeof event !== "object" ||
    event === null ||
    typeof (event as { event_type?: unknown }).event_type !== "string"
  ) {
    throw new WebhookVerificationError(
      "invalid_payload",
      "The webhook body is signed but is not an event (no event_type).",
    );
  }
  return event as WebhookEvent;
}
