import { setImmediate as afterIo, setTimeout as delay } from "node:timers/promises";
import fc from "fast-check";
import { createSpecAjv, detachSchema } from "../src/spec/ajv.ts";
import { responseValidator } from "../test/support/test-server.ts";
import type { Answer, AnswerJudges } from "./answer-checks.ts";
import { judgeAnswer } from "./answer-checks.ts";
import { createLinkReader } from "./answer-links.ts";
import { runCoveragePass } from "./coverage-pass.ts";
import { createFormatChecks } from "./format-checks.ts";
import type { FuzzReport } from "./fuzz-report.ts";
import type { FuzzSettings } from "./fuzz-settings.ts";
import { IdPool } from "./id-pool.ts";
import { readBack } from "./read-back.ts";
import type { RequestDraft } from "./request-draft.ts";
import { requestDrafts } from "./request-draft.ts";
import { createSchemaValues } from "./schema-values.ts";
import type { SentRequest } from "./sent-request.ts";
import { describeExchange, toSentRequest } from "./sent-request.ts";
import type { ServiceModel } from "./spec-operations.ts";
import { createSpecOracle } from "./spec-oracle.ts";

/** The service under test and the keys the fuzzer sends. */
export interface FuzzTarget {
  baseUrl: string;
  keys: {
    /** The fuzzing tenant. */
    own: string;
    /** A tenant that never creates anything: every id it did not create is missing for it. */
    empty: string;
    /** A key the service never issued. */
    bad: string;
  };
  /**
   * How the data of other keys is kept from this one: text only another tenant's data holds, which must never appear
   * in an answer; or null where every key sees every other key's data (the one forum of many agents).
   */
  isolation: { secret: string } | null;
}

/**
 * A refusal for the value's type or for a missing field: the schema alone decides those, so the spec must refuse the
 * request too. The inbox says so by `details.code`; the forum answers every 400 as VALIDATION_ERROR, so its message
 * (`title: is required`, `url: must be a string or null`) tells.
 */
const TYPE_OR_PRESENCE =
  /: (?:is required|must be (?:a string|an integer|a number|true or false|a list|an object|null)(?: or (?:a string|an integer|a number|true or false|a list|an object|null))*)\.?$/;
const SCHEMA_REFUSALS = {
  // Only for a field the request carries: a draft sent without a recipient in its `to` is refused REQUIRED too, for
  // what the draft lacks, which no schema of the request can tell.
  inbox: (body: unknown, carries: (field: string) => boolean) => {
    const details = (body as { error?: { details?: { code?: unknown; field?: unknown } } } | undefined)?.error?.details;
    const field = typeof details?.field === "string" ? details.field : null;
    return (details?.code === "INVALID_TYPE" || details?.code === "REQUIRED") && (field === null || carries(field));
  },
  forum: (body: unknown, _carries: (field: string) => boolean) => {
    const refusal = body as { code?: unknown; error?: unknown } | undefined;
    return (
      refusal?.code === "VALIDATION_ERROR" && typeof refusal.error === "string" && TYPE_OR_PRESENCE.test(refusal.error)
    );
  },
};

/**
 * Operations that use up what their path names, which the spec says and no shape shows: a sent draft is gone (a
 * second send, or any read of it, is a 404).
 */
const USED_UP_BY: Readonly<Record<string, string>> = { sendDraft: "draft_id" };

const REQUEST_TIMEOUT_MS = 10_000;
/** A wait since the last answer past which the event loop is let turn before the next request (see settle). */
const IDLE_SETTLE_MS = 1_000;

/**
 * Lets the event loop turn once through its timers, then once past its I/O. The server runs in this process: after a
 * long wait (a slow step of the suite, or the process held by a loaded machine) the server's keep-alive timer of an
 * idle connection is due, but has not fired, and the client still counts the connection open. A request sent on it
 * at once is reset when that timer fires before the server reads it, which is no fault of the service; once the
 * timer has fired and the client has seen the connection close, the request goes out on a new one.
 */
async function settle(): Promise<void> {
  await delay(0);
  await afterIo();
}

/** The names (`agent_name`) at the top of a JSON request body. */
function sentNames(bodyText: string | undefined): Record<string, string> {
  let body: unknown;
  try {
    body = bodyText === undefined ? undefined : JSON.parse(bodyText);
  } catch {
    return {};
  }
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    return {};
  }
  return Object.fromEntries(
    Object.entries(body).filter(
      (entry): entry is [string, string] => entry[0].endsWith("_name") && typeof entry[1] === "string",
    ),
  );
}

async function send(sent: SentRequest, authorization?: string): Promise<Answer> {
  const headers = new Headers(sent.headers);
  if (authorization !== undefined) {
    headers.set("Authorization", authorization);
  }
  const response = await fetch(sent.url, {
    method: sent.method,
    headers,
    body: sent.bodyText,
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const bytes = new Uint8Array(await response.arrayBuffer());
  // A download answers bytes of another type, not JSON; they are judged as bytes (and read as text for leaks), also
  // when there are none (an empty attachment).
  const contentType = response.headers.get("Content-Type");
  if (contentType !== null && !contentType.startsWith("application/json")) {
    return {
      status: response.status,
      headers: response.headers,
      text: Buffer.from(bytes).toString("latin1"),
      body: bytes,
    };
  }
  const text = new TextDecoder().decode(bytes);
  let body: unknown;
  try {
    body = text === "" ? undefined : (JSON.parse(text) as unknown);
  } catch {
    body = text;
  }
  return { status: response.status, headers: response.headers, text, body };
}

/** What a run compiles from its service's spec: the values it draws, and the checks its answers are judged by. */
export interface FuzzPreparation {
  model: ServiceModel;
  values: ReturnType<typeof createSchemaValues>;
  oracle: ReturnType<typeof createSpecOracle>;
  isEnvelope: (body: unknown) => boolean;
  formats: ReturnType<typeof createFormatChecks>;
}

/**
 * Compiles a service's spec for a run (a second or more of work the event loop cannot interrupt), given the domains
 * the server hosts inboxes in (null for a service without inboxes). Prepare before opening connections to a server
 * in the same process: while the loop is held, a kept-alive connection outlives the server's keep-alive timeout
 * without either side noticing, and the first request sent on it after the wait is reset when the server's timer
 * fires before it reads that request.
 */
export function prepareFuzzRun(model: ServiceModel, hostedDomains: readonly string[] | null): FuzzPreparation {
  const envelope = createSpecAjv(model.document, `${model.service}-fuzz-envelope`).compile(
    detachSchema({ $ref: "#/components/schemas/ErrorResponse" }, `${model.service}-fuzz-envelope`),
  );
  return {
    model,
    values: createSchemaValues(model.document, hostedDomains ?? []),
    oracle: createSpecOracle(model),
    isEnvelope: (body) => envelope(body),
    formats: createFormatChecks(model.document, hostedDomains),
  };
}

/**
 * Drives one service from its spec: fast-check draws requests for every operation, each is sent over HTTP, and every
 * answer is judged; ids from real answers feed later requests. Failures are recorded in the report rather than
 * thrown, so that one run shows every kind of failure with reproductions.
 */
export function createFuzzRun(prepared: FuzzPreparation, report: FuzzReport, target: FuzzTarget) {
  const { model, values, oracle } = prepared;
  // Path parameters naming a resource by a field that is no `*_id` nor a `name` (`entry`, `token`) are filed too.
  const namedKeys = model.operations.flatMap((operation) =>
    operation.pathParameters
      .map((parameter) => parameter.name)
      .filter(
        (name) => !name.endsWith("_id") && !name.endsWith("_name") && !operation.enumPathParameters.includes(name),
      ),
  );
  const pool = new IdPool(namedKeys);
  const linkedParameters = createLinkReader(target.baseUrl, model.operations);
  /** Per operation, the names its request carries: its parameters, and every property of its body's schema. */
  const fieldsByOperation = new Map<string, Set<string>>();
  const requestFields = (operation: SentRequest["operation"]): Set<string> => {
    let fields = fieldsByOperation.get(operation.operationId);
    if (fields === undefined) {
      fields = new Set(
        [...operation.pathParameters, ...operation.queryParameters, ...operation.headerParameters].map((p) => p.name),
      );
      const visit = (schema: unknown, depth: number) => {
        if (depth > 8 || schema === null || typeof schema !== "object") {
          return;
        }
        const resolved = values.resolve(schema as Parameters<typeof values.resolve>[0]) as Record<string, unknown>;
        for (const [name, property] of Object.entries((resolved.properties ?? {}) as Record<string, unknown>)) {
          fields?.add(name);
          visit(property, depth + 1);
        }
        for (const key of ["items", "oneOf", "anyOf", "allOf"]) {
          const nested = resolved[key];
          for (const each of Array.isArray(nested) ? nested : [nested]) {
            visit(each, depth + 1);
          }
        }
      };
      visit(operation.body?.schema, 0);
      fieldsByOperation.set(operation.operationId, fields);
    }
    return fields;
  };
  const judges: AnswerJudges = {
    conformance: responseValidator(model.service),
    isEnvelope: prepared.isEnvelope,
    secret: target.isolation?.secret ?? null,
    isSchemaRefusal: (body, sent) =>
      SCHEMA_REFUSALS[model.service](body, (field) => requestFields(sent.operation).has(field.split(/[.[]/)[0] ?? "")),
    formats: prepared.formats,
  };
  const setting = {
    baseUrl: target.baseUrl,
    pool,
    oracle,
    keys: { own: target.keys.own, bad: target.keys.bad },
    sharedData: target.isolation === null,
  };
  /** Idempotency-Keys that have answered 2xx: a later 2xx under one of them is a replay of an earlier answer. */
  const answeredKeys = new Set<string>();

  function tallyStrictChecks(sent: SentRequest) {
    if (sent.credentials !== "own") {
      report.tally("without a valid key");
    } else if (!sent.operation.pathMethods.includes(sent.method)) {
      report.tally("with an unsupported method");
    } else if (typeof sent.invalidReason === "string") {
      report.tally("refused by the spec");
    } else if (sent.invalidReason === null && sent.missing.length > 0) {
      report.tally("valid but naming a missing id");
    } else if (sent.invalidReason === null && sent.shared.length > 0) {
      report.tally("valid, naming another agent's data");
    } else if (sent.invalidReason === null) {
      report.tally("valid");
    }
  }

  let lastAnsweredAt = Number.NEGATIVE_INFINITY;
  async function exercise(sent: SentRequest): Promise<void> {
    const { operationId } = sent.operation;
    if (performance.now() - lastAnsweredAt > IDLE_SETTLE_MS) {
      await settle();
    }
    let answer: Answer;
    try {
      answer = await send(sent);
      lastAnsweredAt = performance.now();
    } catch (error) {
      report.answered(operationId, null);
      // fetch's own message ("fetch failed") says nothing; its cause names what the socket saw (reset, closed, timeout).
      const cause = error instanceof Error && error.cause !== undefined ? ` (${String(error.cause)})` : "";
      report.failed({
        kind: "noAnswer",
        detail: `${String(error)}${cause}`,
        reproduction: describeExchange(sent, "no answer", ""),
      });
      return;
    }
    report.answered(operationId, answer.status);
    const verdict = judgeAnswer(sent, answer, judges);
    tallyStrictChecks(sent);
    for (const failure of verdict.failures) {
      report.failed(failure);
    }
    if (verdict.askEmptyTenant) {
      report.tally("replayed by a tenant with no data");
      const fromEmpty = await send(sent, `Bearer ${target.keys.empty}`);
      if (fromEmpty.status !== answer.status) {
        report.failed({
          kind: "missingNot404",
          detail: `${sent.missing.join(", ")}: answered ${answer.status}, but ${fromEmpty.status} to a tenant with no data`,
          reproduction: describeExchange(sent, answer.status, answer.text),
        });
      }
    }
    const succeeded = answer.status >= 200 && answer.status < 300;
    const served = sent.credentials === "own" || sent.operation.public;
    if (!succeeded && served && sent.invalidReason === null && sent.missing.length === 0) {
      report.refused(operationId, answer.status, answer.text);
    }
    if (!succeeded || !served || !sent.routed || sent.method !== sent.operation.method) {
      return;
    }
    const filed = pool.harvest(answer.body, "own", sent.pathValues);
    // What a link of the answer names (a download's token) opens what the request named: it goes when that goes.
    for (const linked of linkedParameters(answer.body)) {
      const opened = Object.entries(linked)
        .filter(([key, id]) => pool.add(key, id, "own"))
        .map(([key, id]) => ({ key, id }));
      for (const parent of Object.values(sent.pathValues)) {
        pool.adopt(parent, opened);
      }
    }
    if (sent.method === "POST") {
      pool.relate(sentNames(sent.bodyText), "own", sent.pathValues);
      // What a POST under a path creates (a post's comment) goes when what the path names goes.
      for (const parent of Object.values(sent.pathValues)) {
        pool.adopt(parent, filed);
      }
    }
    if (sent.method === "DELETE") {
      const last = sent.operation.pathParameters.at(-1)?.name;
      // A DELETE on a path ending in a word (`/follow`, `/subscribe`) removes a relation, not what the path names.
      // One keyed together with words choosing its collection (a list entry under `/lists/send/block`) is gone from that
      // collection only, and may live on in another: the fuzzer cannot say the id alone names nothing.
      if (
        last !== undefined &&
        sent.operation.path.endsWith(`{${last}}`) &&
        sent.operation.enumPathParameters.length === 0
      ) {
        pool.remove(last, sent.pathValues[last] ?? "");
      }
    }
    const usedUp = USED_UP_BY[operationId];
    const usedUpId = usedUp === undefined ? undefined : sent.pathValues[usedUp];
    if (usedUp !== undefined && usedUpId !== undefined) {
      pool.remove(usedUp, usedUpId);
    }
    const key = sent.headers.get("idempotency-key");
    const replayed = key !== null && answeredKeys.has(key);
    if (key !== null) {
      answeredKeys.add(key);
    }
    // A replayed answer is the resource as it was created, which may have changed or gone since.
    if (replayed) {
      report.tally("replayed under an Idempotency-Key");
      return;
    }
    const unreadable = await readBack(sent, answer.body, {
      baseUrl: target.baseUrl,
      ownKey: target.keys.own,
      conformance: judges.conformance,
    });
    if (sent.operation.readBack !== null) {
      report.tally("created, then read back");
    }
    if (unreadable) {
      report.failed(unreadable);
    }
  }

  const byOperation = model.operations.map((operation) => ({
    operationId: operation.operationId,
    drafts: requestDrafts(operation, values, target.isolation === null),
  }));
  const drafts = fc.oneof(...byOperation.map((operation) => operation.drafts));
  const exerciseDraft = (draft: RequestDraft) => exercise(toSentRequest(draft, setting));
  return {
    pool,
    /**
     * Visits every operation until it answers 2xx (see runCoveragePass), then runs the property with the settings'
     * seed and count in what is left of the time limit, which bounds both.
     */
    async run(settings: FuzzSettings): Promise<void> {
      const started = performance.now();
      const deadline = started + settings.timeLimitMs;
      const coverage = await runCoveragePass(byOperation, (id) => report.succeededOnce(id), exerciseDraft, {
        seed: settings.seed,
        rounds: settings.coverageRounds,
        deadline,
      });
      report.covered(coverage);
      const remainingMs = Math.floor(deadline - performance.now());
      if (remainingMs <= 0) {
        report.finished(performance.now() - started);
        report.interrupt();
        return;
      }
      const details = await fc.check(fc.asyncProperty(drafts, exerciseDraft), {
        seed: settings.seed,
        numRuns: settings.runs,
        interruptAfterTimeLimit: remainingMs,
      });
      report.finished(performance.now() - started);
      if (details.interrupted) {
        report.interrupt();
      }
      if (details.failed) {
        throw new Error(fc.defaultReportMessage(details) ?? "The fuzz run failed.");
      }
    },
  };
}
