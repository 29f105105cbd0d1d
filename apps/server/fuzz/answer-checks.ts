import type { ObservedResponse } from "../test/support/response-validator.ts";
import type { FormatFindings } from "./format-checks.ts";
import type { Failure, FailureKind } from "./fuzz-report.ts";
import type { SentRequest } from "./sent-request.ts";
import { describeExchange } from "./sent-request.ts";

/** An HTTP answer as received. */
export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed JSON body; the bytes of a download; undefined when there is none. */
  body: unknown;
}

export interface AnswerJudges {
  /** The spec's response check: documented status, body and headers (empty when the answer conforms). */
  conformance(observed: ObservedResponse): string[];
  /** Whether a body is the service's error envelope. */
  isEnvelope(body: unknown): boolean;
  /** Text that only another tenant's data contains; null where every key sees every other key's data. */
  secret: string | null;
  /** Whether an error body refuses the request for breaking the spec's schema (not for a rule beyond it). */
  isSchemaRefusal(body: unknown, sent: SentRequest): boolean;
  /** The strict reading of the formats, and the hosted domains, over an accepted request and its answer. */
  formats(sent: SentRequest, status: number, body: unknown): FormatFindings;
}

export interface Verdict {
  failures: Failure[];
  /**
   * The request names a missing resource and is otherwise valid, yet was not answered 404: the same request from a
   * tenant with no data tells whether the answer came from the request alone or from what the caller holds.
   */
  askEmptyTenant: boolean;
}

const isSuccess = (status: number) => status >= 200 && status < 300;
const allowedMethods = (header: string | null) =>
  (header ?? "")
    .split(",")
    .map((method) => method.trim().toUpperCase())
    .filter(Boolean)
    .sort();

function parsesAsJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Every check that one answer alone can settle. */
export function judgeAnswer(sent: SentRequest, answer: Answer, judges: AnswerJudges): Verdict {
  const failures: Failure[] = [];
  const fail = (kind: FailureKind, detail: string) =>
    failures.push({ kind, detail, reproduction: describeExchange(sent, answer.status, answer.text) });
  const { status } = answer;
  const methodSupported = sent.operation.pathMethods.includes(sent.method);

  if (status >= 500) {
    fail("serverError", `${sent.operation.operationId} answered ${status}`);
  }
  if (answer.text !== "" && !(answer.body instanceof Uint8Array) && !parsesAsJson(answer.text)) {
    fail("notJson", `${sent.operation.operationId} answered ${status} with a body that is not JSON`);
  }
  if (judges.secret !== null && answer.text.includes(judges.secret)) {
    fail("leak", `${sent.operation.operationId} answered with another tenant's data`);
  }

  // Only the operation anyone may call is served without a key; another method on its path needs one.
  const needsKey = !sent.operation.public || sent.method !== sent.operation.method;
  if (sent.credentials !== "own" && needsKey) {
    if (status !== 401) {
      fail(
        "unauthenticated",
        `a request with ${sent.credentials === "none" ? "no" : "an unknown"} key answered ${status}`,
      );
    }
  } else if (sent.credentials === "own" && !methodSupported && sent.routed) {
    const allow = allowedMethods(answer.headers.get("allow"));
    const expected = [...sent.operation.pathMethods].sort();
    if (status !== 405 || allow.join() !== expected.join()) {
      fail(
        "methodNot405",
        `${sent.method} ${sent.operation.path} answered ${status} with Allow '${allow.join(", ")}'; expected 405 with Allow '${expected.join(", ")}'`,
      );
    }
  }

  const documented = sent.routed && sent.method === sent.operation.method;
  if (!documented && status >= 400 && !judges.isEnvelope(answer.body)) {
    fail("outsideEnvelope", `${sent.method} ${sent.url.pathname} answered ${status} outside the envelope`);
  }
  if (documented) {
    const violations = judges.conformance({
      method: sent.method,
      specPath: sent.operation.path,
      status,
      headers: answer.headers,
      body: answer.body,
    });
    if (violations.length > 0) {
      fail("undocumented", violations.join("; "));
    }
  }

  if (typeof sent.invalidReason === "string" && isSuccess(status)) {
    fail("invalidAccepted", `the spec refuses it (${sent.invalidReason}) but it answered ${status}`);
  }

  // In the one forum what another agent wrote is everyone's: a request naming it and sending no body (so no other id)
  // finds it, or is refused for what it asks (only its author may delete it), but never answers 404.
  const namesShared = sent.credentials === "own" && sent.invalidReason === null && sent.shared.length > 0;
  if (namesShared && sent.missing.length === 0 && sent.bodyText === undefined && status === 404) {
    fail("sharedHidden", `${sent.shared.join(", ")} of another agent answered 404`);
  }

  const takenBySpec = documented && sent.credentials === "own" && sent.invalidReason === null;
  if (takenBySpec && status === 400 && judges.isSchemaRefusal(answer.body, sent)) {
    fail("validRefused", `the spec takes it, but it answered 400 ${answer.text.slice(0, 200)}`);
  }
  if (documented && sent.credentials === "own" && isSuccess(status)) {
    const findings = judges.formats(sent, status, answer.body);
    for (const problem of findings.accepted) {
      fail("formatAccepted", problem);
    }
    for (const problem of findings.answered) {
      fail("formatAnswered", problem);
    }
    for (const address of findings.unhosted) {
      fail("unhostedInbox", `${sent.operation.operationId} answered the inbox '${address}'`);
    }
  }

  const namesMissing = sent.credentials === "own" && sent.invalidReason === null && sent.missing.length > 0;
  if (namesMissing && isSuccess(status)) {
    fail("missingFound", `${sent.missing.join(", ")} answered ${status}`);
  }

  checkOffsetEcho(sent, answer, fail);
  checkListCounts(sent, answer, fail);
  return {
    failures,
    askEmptyTenant:
      namesMissing && !isSuccess(status) && status !== 404 && status < 500 && !refusedReusedKey(sent, status),
  };
}

/**
 * A 409 to a write carrying an Idempotency-Key: the caller used the key before for another request, whatever the
 * request names, so a tenant that never used the key cannot be expected to hear the same.
 */
const refusedReusedKey = (sent: SentRequest, status: number) => status === 409 && sent.headers.has("idempotency-key");

/** The next offset must be exactly the offset sent plus the count: digits past 2^53 must survive. */
function checkOffsetEcho(sent: SentRequest, answer: Answer, fail: (kind: FailureKind, detail: string) => void) {
  const offsets = sent.url.searchParams.getAll("offset");
  const offset = offsets[0];
  if (!isSuccess(answer.status) || offsets.length !== 1 || offset === undefined || !/^\d+$/.test(offset)) {
    return;
  }
  const next = /"next_offset"\s*:\s*(-?\d+)/.exec(answer.text)?.[1];
  const count = /"count"\s*:\s*(\d+)/.exec(answer.text)?.[1];
  if (next !== undefined && count !== undefined && BigInt(next) !== BigInt(offset) + BigInt(count)) {
    fail("precisionLost", `offset ${offset} and count ${count} answered next_offset ${next}`);
  }
}

/** A page's `count` is the number of its items, and a page never holds more items than the `limit` asked for. */
function checkListCounts(sent: SentRequest, answer: Answer, fail: (kind: FailureKind, detail: string) => void) {
  const { body } = answer;
  if (!isSuccess(answer.status) || body === null || typeof body !== "object" || !("count" in body)) {
    return;
  }
  const lists = Object.values(body).filter(Array.isArray);
  const items = lists[0]?.length;
  if (lists.length !== 1 || items === undefined) {
    return;
  }
  if (body.count !== items) {
    fail("listMismatch", `count ${String(body.count)} with ${items} items`);
  }
  const limits = sent.url.searchParams.getAll("limit");
  const limit = limits.length === 1 && /^\d+$/.test(limits[0] ?? "") ? Number(limits[0]) : undefined;
  if (limit !== undefined && items > limit) {
    fail("listMismatch", `${items} items for limit ${limit}`);
  }
}
