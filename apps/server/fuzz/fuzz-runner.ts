import fc from "fast-check";
import { createSpecAjv, detachSchema } from "../src/spec/ajv.ts";
import { responseValidator } from "../test/support/test-server.ts";
import type { Answer, AnswerJudges } from "./answer-checks.ts";
import { judgeAnswer } from "./answer-checks.ts";
import { createFormatChecks } from "./format-checks.ts";
import type { FuzzReport } from "./fuzz-report.ts";
import type { FuzzSettings } from "./fuzz-settings.ts";
import { IdPool } from "./id-pool.ts";
import { readBack } from "./read-back.ts";
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
  /** The domains the server hosts inboxes in; null for a service without inboxes. */
  hostedDomains: readonly string[] | null;
}

/**
 * A refusal for the value's type or for a missing field: the schema alone decides those, so the spec must refuse the
 * request too. The inbox says so by `details.code`; the forum answers every 400 as VALIDATION_ERROR, so its message
 * (`title: is required`, `url: must be a string or null`) tells.
 */
const TYPE_OR_PRESENCE =
  /: (?:is required|must be (?:a string|an integer|a number|true or false|a list|an object|null)(?: or (?:a string|an integer|a number|true or false|a list|an object|null))*)\.?$/;
const SCHEMA_REFUSALS = {
  inbox: (body: unknown) => {
    const code = (body as { error?: { details?: { code?: unknown } } } | undefined)?.error?.details?.code;
    return code === "INVALID_TYPE" || code === "REQUIRED";
  },
  forum: (body: unknown) => {
    const refusal = body as { code?: unknown; error?: unknown } | undefined;
    return (
      refusal?.code === "VALIDATION_ERROR" && typeof refusal.error === "string" && TYPE_OR_PRESENCE.test(refusal.error)
    );
  },
};

const REQUEST_TIMEOUT_MS = 10_000;

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

/**
 * Drives one service from its spec: fast-check draws requests for every operation, each is sent over HTTP, and every
 * answer is judged; ids from real answers feed later requests. Failures are recorded in the report rather than
 * thrown, so that one run shows every kind of failure with reproductions.
 */
export function createFuzzRun(model: ServiceModel, report: FuzzReport, target: FuzzTarget) {
  // Path parameters naming a resource by a field that is no `*_id` nor a `name` (`entry`, `token`) are filed too.
  const namedKeys = model.operations.flatMap((operation) =>
    operation.pathParameters
      .map((parameter) => parameter.name)
      .filter(
        (name) => !name.endsWith("_id") && !name.endsWith("_name") && !operation.enumPathParameters.includes(name),
      ),
  );
  const pool = new IdPool(namedKeys);
  const values = createSchemaValues(model.document, target.hostedDomains ?? []);
  const oracle = createSpecOracle(model);
  const envelope = createSpecAjv(model.document, `${model.service}-fuzz-envelope`).compile(
    detachSchema({ $ref: "#/components/schemas/ErrorResponse" }, `${model.service}-fuzz-envelope`),
  );
  const judges: AnswerJudges = {
    conformance: responseValidator(model.service),
    isEnvelope: (body) => envelope(body),
    secret: target.isolation?.secret ?? null,
    isSchemaRefusal: SCHEMA_REFUSALS[model.service],
    formats: createFormatChecks(model.document, target.hostedDomains),
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

  async function exercise(sent: SentRequest): Promise<void> {
    const { operationId } = sent.operation;
    let answer: Answer;
    try {
      answer = await send(sent);
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
    if (!succeeded || !served || !sent.routed || sent.method !== sent.operation.method) {
      return;
    }
    const filed = pool.harvest(answer.body, "own", sent.pathValues);
    if (sent.method === "POST") {
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

  const drafts = fc.oneof(...model.operations.map((operation) => requestDrafts(operation, values)));
  return {
    pool,
    /** Runs the property with the settings' seed, count and time limit. */
    async run(settings: FuzzSettings): Promise<void> {
      const started = performance.now();
      const details = await fc.check(
        fc.asyncProperty(drafts, (draft) => exercise(toSentRequest(draft, setting))),
        { seed: settings.seed, numRuns: settings.runs, interruptAfterTimeLimit: settings.timeLimitMs },
      );
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
