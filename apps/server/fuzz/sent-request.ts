import { fillReferences, PoolReference, toJsonText, toParameterText } from "./draft-values.ts";
import type { IdPool } from "./id-pool.ts";
import type { Credentials, PathChoice, RequestDraft } from "./request-draft.ts";
import type { FuzzOperation } from "./spec-operations.ts";
import { templatePattern } from "./spec-operations.ts";
import type { RequestFacts } from "./spec-oracle.ts";

/** A request ready to send, with what the fuzzer knows about it. */
export interface SentRequest {
  operation: FuzzOperation;
  method: string;
  url: URL;
  headers: Headers;
  bodyText: string | undefined;
  credentials: Credentials;
  /** The decoded value of each path parameter. */
  pathValues: Record<string, string>;
  /** Whether the URL, once normalised, still has the operation's path (odd segments may change it). */
  routed: boolean;
  /** Why the spec refuses this request; null when it takes it; undefined when that cannot be told. */
  invalidReason: string | null | undefined;
  /** Path parameters naming what the caller cannot see: another tenant's, deleted or never-issued ids. */
  missing: string[];
  /** Path parameters naming another key's ids that the caller sees (another agent's, in the one forum). */
  shared: string[];
}

export interface SendSetting {
  baseUrl: string;
  pool: IdPool;
  oracle(request: RequestFacts): string | null;
  keys: { own: string; bad: string };
  /** Whether the caller sees what other keys created (one forum for every agent) rather than only its own. */
  sharedData: boolean;
}

/** Header values fetch can carry; the rest are left out rather than failing the request before it is sent. */
const SENDABLE_HEADER = /^[\x20-\x7e]*$/;
const NO_BODY_METHODS = new Set(["GET", "HEAD"]);

const fallbackId = (reference: PoolReference) =>
  reference.key === "inbox_id"
    ? `nobody-${reference.pick % 1000}@pigeonhole.test`
    : `00000000-0000-4000-8000-${String(reference.pick % 1e12).padStart(12, "0")}`;

/** Longest parameter text sent: a request line past Node's 16 KiB header limit is refused before the API sees it. */
const MAX_PARAMETER_LENGTH = 600;
/** Longest query sent, encoded: parameters past it are left out, for the same limit. */
const MAX_QUERY_LENGTH = 8_000;

/**
 * A parameter as a URL can carry it: clipped to MAX_PARAMETER_LENGTH, and Unicode text only (a lone surrogate
 * becomes U+FFFD, as URLSearchParams does with it).
 */
const parameterText = (text: string) =>
  text
    .slice(0, MAX_PARAMETER_LENGTH)
    .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd");

function decodeSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** Fills a draft with ids from the pool and judges it by the spec. */
export function toSentRequest(draft: RequestDraft, setting: SendSetting): SentRequest {
  const { pool } = setting;
  const lookup = (reference: PoolReference) => pool.resolve(reference) ?? fallbackId(reference);
  const pathValues: Record<string, string> = {};
  const missing: string[] = [];
  const shared: string[] = [];
  let decodable = true;
  /** Ids drawn so far for this path, so that the next one is drawn to go with them. */
  const chosen: Record<string, string> = {};
  const segments: Record<string, string> = {};
  // The innermost id is drawn first and its parents along with it: a thread, then the inbox that holds it.
  const nested = Object.keys(draft.path).length > 1;
  const goneDrawn: { name: string; id: string }[] = [];
  for (const [name, choice] of (Object.entries(draft.path) as [string, PathChoice][]).reverse()) {
    let value: string;
    if (choice.kind === "raw") {
      segments[name] = choice.segment;
      const decoded = decodeSegment(choice.segment);
      decodable &&= decoded !== undefined;
      pathValues[name] = decoded ?? choice.segment;
      continue;
    }
    const isWord = draft.operation.enumPathParameters.includes(name);
    if (choice.kind === "value") {
      value = parameterText(choice.value);
    } else if (isWord && choice.kind !== "gone") {
      // A word choosing a collection: the one the ids drawn so far were seen in, else the word drawn.
      value = pool.seenWith(name, chosen, choice.pick) ?? parameterText(choice.fallback);
      chosen[name] = value;
    } else {
      const drawn =
        choice.kind === "gone"
          ? pool.gone(choice.pick, name)
          : pool.resolveAlong(new PoolReference(name, choice.pick, choice.kind), chosen, nested);
      if (drawn !== undefined) {
        chosen[name] = drawn;
      }
      value = drawn ?? parameterText(choice.fallback);
      if (drawn !== undefined && choice.kind === "gone") {
        goneDrawn.push({ name, id: drawn });
      } else if (drawn !== undefined && choice.kind === "foreign") {
        if (setting.sharedData) {
          shared.push(name);
        } else {
          missing.push(`${name} (another tenant's)`);
        }
      }
    }
    // A word choosing a collection (`send`, `block`) is no id: never issued, yet naming nothing missing.
    if (!pool.isKnown(value) && !isWord) {
      missing.push(`${name} (never issued)`);
    }
    pathValues[name] = value;
    segments[name] = encodeURIComponent(value);
  }
  for (const { name, id } of goneDrawn) {
    // Gone with its parent: only named with that parent is it surely missing.
    const parent = pool.removedWith(id);
    if (parent === undefined || Object.values(pathValues).includes(parent)) {
      missing.push(`${name} (deleted)`);
    }
  }
  const path = draft.operation.path.replace(/\{([^}]+)\}/g, (_match, name: string) => segments[name] ?? "");
  const url = new URL(`${setting.baseUrl}${path}`);
  const query: Record<string, string | string[]> = {};
  // A query parameter's id is drawn to go with the path's (a moderator of the community the path names).
  const lookupAlong = (reference: PoolReference) => pool.resolveAlong(reference, chosen) ?? fallbackId(reference);
  for (const [name, raw] of draft.query) {
    const filled = fillReferences(raw, lookupAlong);
    // A list is sent as the spec's array parameters are (`style: form`, exploded): the name once per item.
    for (const item of Array.isArray(filled) ? filled : [filled]) {
      const value = parameterText(toParameterText(item));
      if (url.search.length + encodeURIComponent(name).length + encodeURIComponent(value).length > MAX_QUERY_LENGTH) {
        continue;
      }
      url.searchParams.append(name, value);
      const previous = query[name];
      query[name] = previous === undefined ? value : [...(Array.isArray(previous) ? previous : [previous]), value];
    }
  }

  const headers = new Headers();
  if (draft.credentials !== "none") {
    headers.set("Authorization", `Bearer ${draft.credentials === "own" ? setting.keys.own : setting.keys.bad}`);
  }
  for (const [name, raw] of draft.headers) {
    const value = toParameterText(raw);
    if (SENDABLE_HEADER.test(value) && value.trim() === value) {
      headers.set(name, value);
    }
  }
  let bodyText: string | undefined;
  if (draft.body.kind !== "none" && !NO_BODY_METHODS.has(draft.method)) {
    // An id of the body is drawn to go with the path's (an attachment of the draft the path names), unless the path
    // names one of its kind itself: a message is sent to any inbox, not only to the one sending it.
    const lookupInBody = (reference: PoolReference) =>
      reference.key in chosen ? lookup(reference) : lookupAlong(reference);
    bodyText =
      draft.body.kind === "json" ? toJsonText(fillReferences(draft.body.value, lookupInBody)) : draft.body.text;
    if (draft.body.contentType !== null) {
      headers.set("Content-Type", draft.body.contentType);
    }
  }

  const routed = templatePattern(draft.operation.path).test(url.pathname);
  const judged = routed && decodable && draft.method === draft.operation.method;
  return {
    operation: draft.operation,
    method: draft.method,
    url,
    headers,
    bodyText,
    credentials: draft.credentials,
    pathValues,
    routed,
    invalidReason: judged
      ? setting.oracle({
          operationId: draft.operation.operationId,
          path: pathValues,
          query,
          headers,
          bodyText: draft.operation.body ? bodyText : undefined,
        })
      : undefined,
    missing,
    shared,
  };
}

/** The request and its answer in a form that can be replayed by hand. */
export function describeExchange(sent: SentRequest, status: number | string, answerText: string): string {
  const clip = (text: string, length: number) =>
    text.length > length ? `${text.slice(0, length)}... (${text.length} chars)` : text;
  const contentType = sent.headers.get("content-type");
  const key = sent.credentials === "own" ? "" : ` [${sent.credentials} key]`;
  const idempotency = sent.headers.get("idempotency-key");
  return [
    `${sent.method} ${clip(`${sent.url.pathname}${sent.url.search}`, 300)}${key}`,
    idempotency === null ? "" : ` Idempotency-Key: ${idempotency}`,
    contentType === null ? "" : ` Content-Type: ${contentType}`,
    sent.bodyText === undefined ? "" : ` body ${clip(sent.bodyText, 400)}`,
    ` -> ${status} ${clip(answerText, 400)}`,
  ].join("");
}
