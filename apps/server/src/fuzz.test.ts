import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FuzzReport } from "./fuzz/fuzz-report.ts";
import { createFuzzRun } from "./fuzz/fuzz-runner.ts";
import { fuzzSettings } from "./fuzz/fuzz-settings.ts";
import { loadServiceModel } from "./fuzz/spec-operations.ts";
import type { ServiceName } from "./spec/spec-bundle.ts";
import type { TestServer } from "./testing/test-server.ts";
import { expectData, forumClient, inboxClient, startTestServer } from "./testing/test-server.ts";

// Requests generated from the bundled specs, valid and invalid, sent over HTTP to a real server by a tenant that
// also knows another tenant's ids. Every answer is judged against the spec (src/fuzz/answer-checks.ts). A run is
// reproducible from its seed; FUZZ_SEED, FUZZ_RUNS and FUZZ_TIME_LIMIT_MS override the defaults.

const SECRET = "zq-private-marker";
const NEVER_ISSUED_KEY = "pk_never_issued_0000000000000000";
const settings = fuzzSettings();
/** With fewer runs than this a service may miss an operation's success path; the coverage check then stands down. */
const RUNS_FOR_FULL_COVERAGE = 600;

let t: TestServer;
/** Per service: another tenant, whose data is marked with SECRET, and a tenant that never creates anything. */
const keys = { inbox: { other: "", empty: "" }, forum: { other: "", empty: "" } };
let others: Awaited<ReturnType<typeof createOtherTenantData>>;
const reports: FuzzReport[] = [];

async function createOtherTenantData() {
  const inbox = inboxClient(t.server.inbox.url, keys.inbox.other);
  const forum = forumClient(t.server.forum.url, keys.forum.other);
  const created = expectData(await inbox.POST("/v0/inboxes", { body: { username: "victim", display_name: SECRET } }));
  const sent = expectData(
    await inbox.POST("/v0/inboxes/{inbox_id}/messages", {
      params: { path: { inbox_id: created.inbox_id } },
      body: { to: "someone@example.com", subject: SECRET, text: SECRET },
    }),
  );
  const webhook = expectData(
    await inbox.POST("/v0/webhooks", { body: { url: `https://example.com/${SECRET}`, client_id: "victim-hook" } }),
  );
  const post = expectData(await forum.POST("/api/v1/posts", { body: { title: SECRET, content: SECRET } })).post;
  const comment = expectData(
    await forum.POST("/api/v1/posts/{post_id}/comments", {
      params: { path: { post_id: post.id } },
      body: { content: SECRET },
    }),
  ).comment;
  return {
    inbox: [created, { ...sent, inbox_id: created.inbox_id }, webhook] as const,
    forum: [{ post }, { comment }] as const,
  };
}

beforeAll(async () => {
  t = await startTestServer();
  keys.inbox.other = await t.server.createApiKey("inbox");
  keys.inbox.empty = await t.server.createApiKey("inbox");
  keys.forum.other = await t.server.createApiKey("forum", { name: "victim" });
  keys.forum.empty = await t.server.createApiKey("forum", { name: "empty" });
  others = await createOtherTenantData();
});

afterAll(async () => {
  process.stdout.write(`\nFuzz summary (seed ${settings.seed}, up to ${settings.runs} requests per service)\n`);
  for (const report of reports) {
    process.stdout.write(`${report.summary()}\n`);
  }
  await t.server.close();
});

describe.each(["inbox", "forum"] as const)("the %s API, fuzzed from its spec", (service: ServiceName) => {
  const model = loadServiceModel(service);
  const operationIds = model.operations.map((operation) => operation.operationId).sort();
  const report = new FuzzReport(service, model.operations.length);
  reports.push(report);

  it("answers every generated request as the spec documents, with no failure of any kind", async () => {
    const address = service === "inbox" ? t.server.inbox : t.server.forum;
    const run = createFuzzRun(model, report, {
      baseUrl: address.url,
      keys: { own: address.apiKey, empty: keys[service].empty, bad: NEVER_ISSUED_KEY },
      secret: SECRET,
    });
    for (const record of others[service]) {
      run.pool.harvest(record, "foreign");
    }
    await run.run(settings);

    expect(report.operationsSent().sort()).toEqual(operationIds);
    expect(report.failureCounts(), report.summary()).toEqual({});
  }, 90_000);

  it("reaches the success path of every operation", () => {
    if (report.interrupted || settings.runs < RUNS_FOR_FULL_COVERAGE) {
      return;
    }
    expect(report.operationsSucceeded().sort()).toEqual(operationIds);
  });
});

describe("after fuzzing", () => {
  it("still holds the other tenant's data intact", async () => {
    const [inbox, sent, webhook] = others.inbox;
    const inboxApi = inboxClient(t.server.inbox.url, keys.inbox.other);
    const message = expectData(
      await inboxApi.GET("/v0/inboxes/{inbox_id}/messages/{message_id}", {
        params: { path: { inbox_id: inbox.inbox_id, message_id: sent.message_id } },
      }),
    );
    expect(message.subject).toBe(SECRET);
    expect(
      expectData(
        await inboxApi.GET("/v0/webhooks/{webhook_id}", { params: { path: { webhook_id: webhook.webhook_id } } }),
      ),
    ).toEqual(webhook);
    const [{ post }] = others.forum;
    const forumApi = forumClient(t.server.forum.url, keys.forum.other);
    const read = expectData(await forumApi.GET("/api/v1/posts/{post_id}", { params: { path: { post_id: post.id } } }));
    expect(read.post).toMatchObject({ title: SECRET, comment_count: 1, upvotes: 0, downvotes: 0 });
  });
});
