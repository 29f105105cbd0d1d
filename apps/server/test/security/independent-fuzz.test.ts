import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Failure } from "../../fuzz/fuzz-report.ts";
import { FuzzReport } from "../../fuzz/fuzz-report.ts";
import { IdPool } from "../../fuzz/id-pool.ts";
import type { IndependentRequest } from "../../fuzz/independent-requests.ts";
import { createIndependentRequests } from "../../fuzz/independent-requests.ts";
import type { ServiceName } from "../../src/spec/spec-bundle.ts";
import { loadSpecBundle } from "../../src/spec/spec-bundle.ts";
import type { TestServer } from "../support/test-server.ts";
import { expectData, responseValidator, startTestServer } from "../support/test-server.ts";

// A second opinion on the server's answers, from a generator nobody here wrote: json-schema-faker draws every part of
// every request from the bundled spec (valid, and every fourth round one part from its schema's negation), and each
// answer must be one the spec documents, body and headers, and never a 5xx. Seeded and bounded;
// INDEPENDENT_FUZZ_SEED, INDEPENDENT_FUZZ_REQUESTS and INDEPENDENT_FUZZ_TIME_LIMIT_MS override the defaults.

const settings = {
  seed: Number(process.env.INDEPENDENT_FUZZ_SEED ?? 20_261_128),
  requests: Number(process.env.INDEPENDENT_FUZZ_REQUESTS ?? 2_000),
  timeLimitMs: Number(process.env.INDEPENDENT_FUZZ_TIME_LIMIT_MS ?? 120_000),
};
const REQUEST_TIMEOUT_MS = 10_000;

interface Answer {
  status: number;
  headers: Headers;
  text: string;
  body: unknown;
}

let t: TestServer;
const reports: { report: FuzzReport; statuses: Map<number, number> }[] = [];

async function send(request: IndependentRequest, key: string): Promise<Answer> {
  const headers = new Headers(request.headers);
  headers.set("Authorization", `Bearer ${key}`);
  const response = await fetch(request.url, {
    method: request.method,
    headers,
    body: request.bodyText,
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const bytes = new Uint8Array(await response.arrayBuffer());
  const json = (response.headers.get("Content-Type") ?? "").startsWith("application/json");
  const text = json ? new TextDecoder().decode(bytes) : Buffer.from(bytes).toString("latin1");
  let body: unknown = json ? undefined : bytes.length === 0 ? undefined : bytes;
  if (json && text !== "") {
    body = JSON.parse(text) as unknown;
  }
  return { status: response.status, headers: response.headers, text, body };
}

const describeRequest = (request: IndependentRequest, answer: Answer) =>
  `${request.method} ${request.url.pathname}${request.url.search}${request.bodyText === undefined ? "" : ` ${request.bodyText.slice(0, 600)}`}` +
  `${request.broken === null ? "" : ` (broken: ${request.broken})`} -> ${answer.status} ${answer.text.slice(0, 400)}`;

/** A 5xx, or (when the URL still names the operation) an answer its spec does not document. */
function judge(
  request: IndependentRequest,
  answer: Answer,
  conformance: ReturnType<typeof responseValidator>,
): Failure[] {
  const reproduction = describeRequest(request, answer);
  const failures: Failure[] = [];
  if (answer.status >= 500) {
    failures.push({ kind: "serverError", detail: `${request.operationId} answered ${answer.status}`, reproduction });
  }
  const violations = request.routed
    ? conformance({
        method: request.method,
        specPath: request.specPath,
        status: answer.status,
        headers: answer.headers,
        body: answer.body,
      })
    : [];
  if (violations.length > 0) {
    failures.push({ kind: "undocumented", detail: violations.join("; "), reproduction });
  }
  return failures;
}

/** After a DELETE, what it named (and what was made under it) is no longer drawn. */
function forgetDeleted(pool: IdPool, request: IndependentRequest) {
  const last = Object.keys(request.pathValues)[0];
  if (request.method === "DELETE" && last !== undefined) {
    pool.remove(last, request.pathValues[last] ?? "");
  }
}

/** Data the fuzzing key starts with, so that drawn requests reach existing resources from the first round. */
/** Seeded copies: drawn DELETEs remove some early, and the rest keep the deeper operations reachable. */
const SEEDED_COPIES = 4;

async function seedInbox(pool: IdPool) {
  for (let copy = 0; copy < SEEDED_COPIES; copy++) {
    await seedInboxCopy(pool, copy);
  }
}

async function seedInboxCopy(pool: IdPool, copy: number) {
  const inbox = expectData(await t.inbox.POST("/v0/inboxes", { body: { username: `seeded-${copy}` } }));
  const webhook = expectData(
    await t.inbox.POST("/v0/webhooks", { body: { url: `http://127.0.0.1:9/seeded-${copy}` } }),
  );
  const sent = expectData(
    await t.inbox.POST("/v0/inboxes/{inbox_id}/messages", {
      params: { path: { inbox_id: inbox.inbox_id } },
      body: {
        to: inbox.inbox_id,
        subject: "Seeded",
        text: "Seeded.",
        attachments: [{ filename: "a.txt", content: "YQ==" }],
      },
    }),
  );
  const message = expectData(
    await t.inbox.GET("/v0/inboxes/{inbox_id}/messages/{message_id}", {
      params: { path: { inbox_id: inbox.inbox_id, message_id: sent.message_id } },
    }),
  );
  const log = expectData(
    await t.inbox.GET("/v0/webhooks/{webhook_id}/deliveries", { params: { path: { webhook_id: webhook.webhook_id } } }),
  );
  pool.harvest(inbox, "own");
  pool.harvest(webhook, "own");
  pool.harvest(message, "own", { inbox_id: inbox.inbox_id });
  // An attachment is named along with its message; filed alone, a drawn message would seldom hold it.
  for (const attachment of message.attachments ?? []) {
    pool.harvest(attachment, "own", { inbox_id: inbox.inbox_id, message_id: message.message_id });
  }
  pool.harvest(log, "own", { webhook_id: webhook.webhook_id });
}

async function seedForum(pool: IdPool) {
  const community = expectData(
    await t.forum.POST("/api/v1/communities", { body: { name: "seeded", display_name: "Seeded" } }),
  ).community;
  const post = expectData(
    await t.forum.POST("/api/v1/posts", { body: { title: "Seeded", content: "Seeded.", community_id: community.id } }),
  ).post;
  const comment = expectData(
    await t.forum.POST("/api/v1/posts/{post_id}/comments", {
      params: { path: { post_id: post.id } },
      body: { content: "Seeded." },
    }),
  ).comment;
  pool.harvest({ community }, "own");
  pool.harvest({ post }, "own");
  pool.harvest({ comment }, "own", { post_id: post.id });
  // Another agent's post, which the fuzzing agent may vote on (its own answer 400 SELF_VOTE).
  const other = await t.newForumAgent("seeded-neighbour");
  const votable = expectData(await other.POST("/api/v1/posts", { body: { title: "Vote", content: "On this." } })).post;
  pool.harvest({ post: votable }, "own");
}

beforeAll(async () => {
  t = await startTestServer();
});

afterAll(async () => {
  process.stdout.write(
    `\nIndependent fuzz (json-schema-faker, seed ${settings.seed}, ${settings.requests} requests per API)\n`,
  );
  for (const { report, statuses } of reports) {
    const byStatus = [...statuses].sort(([a], [b]) => a - b).map(([status, count]) => `${status} ${count}`);
    process.stdout.write(`${report.summary()}\n${report.service}: statuses ${byStatus.join(", ")}\n`);
  }
  await t.server.close();
});

describe.each(["inbox", "forum"] as const)("the %s API, fuzzed by json-schema-faker", (service: ServiceName) => {
  it(
    "answers every request as its spec documents, and never with a 5xx",
    async () => {
      const document = loadSpecBundle(service);
      const address = service === "inbox" ? t.server.inbox : t.server.forum;
      const pool = new IdPool();
      await (service === "inbox" ? seedInbox(pool) : seedForum(pool));
      const requests = createIndependentRequests({ document, baseUrl: address.url, seed: settings.seed, pool });
      const report = new FuzzReport(service, requests.operationCount);
      const statuses = new Map<number, number>();
      reports.push({ report, statuses });
      const conformance = responseValidator(service);
      const started = performance.now();

      for (let index = 0; index < settings.requests; index++) {
        if (performance.now() - started > settings.timeLimitMs) {
          report.interrupt();
          break;
        }
        const request = requests.next(index);
        const answer = await send(request, address.apiKey);
        report.answered(request.operationId, answer.status);
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        report.tally(request.broken === null ? "drawn from the schemas" : "with one part broken");
        if (!request.routed) {
          report.tally("led elsewhere by a dot segment");
        }
        for (const failure of judge(request, answer, conformance)) {
          report.failed(failure);
        }
        if (request.routed && answer.status >= 200 && answer.status < 300) {
          pool.harvest(answer.body, "own", request.pathValues);
          forgetDeleted(pool, request);
        }
      }
      report.finished(performance.now() - started);

      expect(report.failureCounts(), report.summary()).toEqual({});
      if (!report.interrupted) {
        expect(report.requests).toBe(settings.requests);
      }
    },
    settings.timeLimitMs + 60_000,
  );
});
