import { createHmac, timingSafeEqual } from "node:crypto";
import { isoTimestamp } from "../clock.ts";

/** How long a download link answers after the request that made it. */
export const DOWNLOAD_LINK_TTL_MS = 15 * 60 * 1000;

/** What a signed link opens: one attachment or the source of one stored copy of a message, of one pod's inbox. */
export interface DownloadTarget {
  podId: string;
  inboxId: string;
  messageId: string;
  /** The attachment; absent for the message's source. */
  attachmentId?: string;
}

interface SignedTarget extends DownloadTarget {
  expiresAtMs: number;
}

const isString = (value: unknown): value is string => typeof value === "string" && value.length > 0;

/** Reads a token's payload back, refusing anything but the exact shape `sign` writes. */
function parsePayload(encoded: string): SignedTarget | null {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(encoded, "base64url").toString("utf8"));
  } catch {
    return null;
  }
  if (typeof value !== "object" || value === null) {
    return null;
  }
  const { p, i, m, a, e } = value as Record<string, unknown>;
  if (!isString(p) || !isString(i) || !isString(m) || (a !== undefined && !isString(a)) || !Number.isSafeInteger(e)) {
    return null;
  }
  return {
    podId: p,
    inboxId: i,
    messageId: m,
    ...(a === undefined ? {} : { attachmentId: a }),
    expiresAtMs: e as number,
  };
}

/**
 * Signed, expiring download links: a token names its target and its expiry, with an HMAC-SHA256 of both under a
 * secret every instance on the database shares, so any instance serves a link another made, and nobody can make or
 * bend one (to another message, inbox or pod, or a later expiry) without the secret.
 */
export class DownloadLinks {
  readonly #secret: () => Promise<Buffer>;

  constructor(secret: () => Promise<Buffer>) {
    this.#secret = secret;
  }

  async #signature(payload: string): Promise<Buffer> {
    return createHmac("sha256", await this.#secret())
      .update(`download:${payload}`)
      .digest();
  }

  /** A token for `target` that opens it until `now + DOWNLOAD_LINK_TTL_MS`, with that time. */
  async sign(target: DownloadTarget, nowMs: number): Promise<{ token: string; expiresAt: string }> {
    const expiresAtMs = nowMs + DOWNLOAD_LINK_TTL_MS;
    const payload = Buffer.from(
      JSON.stringify({
        p: target.podId,
        i: target.inboxId,
        m: target.messageId,
        ...(target.attachmentId === undefined ? {} : { a: target.attachmentId }),
        e: expiresAtMs,
      }),
    ).toString("base64url");
    const signature = (await this.#signature(payload)).toString("base64url");
    return { token: `${payload}.${signature}`, expiresAt: isoTimestamp(expiresAtMs) };
  }

  /** The target of a token this server signed whose time is not up; null for any other. */
  async open(token: string, nowMs: number): Promise<DownloadTarget | null> {
    const [payload, signature, ...rest] = token.split(".");
    if (payload === undefined || signature === undefined || rest.length > 0) {
      return null;
    }
    const expected = await this.#signature(payload);
    const given = Buffer.from(signature, "base64url");
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      return null;
    }
    const target = parsePayload(payload);
    if (!target || target.expiresAtMs <= nowMs) {
      return null;
    }
    const { expiresAtMs: _expiresAtMs, ...opened } = target;
    return opened;
  }
}

/** One media range of an `Accept` header with its weight. */
interface MediaRange {
  type: string;
  subtype: string;
  q: number;
}

function mediaRanges(accept: string): MediaRange[] {
  return accept.split(",").flatMap((part) => {
    const [range, ...parameters] = part.split(";").map((piece) => piece.trim().toLowerCase());
    const [type, subtype] = (range ?? "").split("/");
    if (!type || !subtype) {
      return [];
    }
    const qParameter = parameters.find((parameter) => parameter.startsWith("q="));
    const q = qParameter === undefined ? 1 : Number(qParameter.slice(2));
    return Number.isFinite(q) ? [{ type, subtype, q }] : [];
  });
}

/** The weight `Accept` gives a media type: that of its most specific matching range, 0 when none matches. */
function weightOf(ranges: readonly MediaRange[], mediaType: string): number {
  const [type, subtype] = mediaType.toLowerCase().split(";")[0]?.trim().split("/") ?? [];
  const specificity = (range: MediaRange) =>
    range.type === type && range.subtype === subtype
      ? 3
      : range.type === type && range.subtype === "*"
        ? 2
        : range.type === "*" && range.subtype === "*"
          ? 1
          : 0;
  const best = ranges.reduce<MediaRange | null>((found, range) => {
    const rank = specificity(range);
    return rank > 0 && (found === null || rank > specificity(found)) ? range : found;
  }, null);
  return best?.q ?? 0;
}

/** What a download request says of the answer it wants. */
export interface DownloadRequest {
  header?(name: string): string | undefined;
}

/**
 * Whether a download request asks for the JSON link rather than the bytes: its `Accept` ranks `application/json`
 * above the bytes' own media type, or it comes from one of AgentMail's SDKs, which name themselves in
 * `X-Fern-SDK-Name`, send `Accept: *\/*` and read only JSON here. No `Accept`, `*\/*` or a tie keep the bytes, the
 * default.
 */
export function wantsJsonLink(request: DownloadRequest, bytesMediaType: string): boolean {
  if (request.header?.("x-fern-sdk-name")?.trim().toLowerCase() === "agentmail") {
    return true;
  }
  const accept = request.header?.("accept");
  if (accept === undefined) {
    return false;
  }
  const ranges = mediaRanges(accept);
  const json = weightOf(ranges, "application/json");
  return json > 0 && json > weightOf(ranges, bytesMediaType);
}

/**
 * The address of a download token at the origin the client reached the server at (a trusted proxy's, when one is in
 * front); a path alone when that is not known.
 */
export function downloadUrl(origin: string | undefined, token: string): string {
  return `${origin ?? ""}/v0/downloads/${token}`;
}
