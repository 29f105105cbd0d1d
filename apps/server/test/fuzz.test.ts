import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FuzzReport } from "../fuzz/fuzz-report.ts";
import { createFuzzRun, prepareFuzzRun } from "../fuzz/fuzz-runner.ts";
import type { FuzzSettings } from "../fuzz/fuzz-settings.ts";
import { fuzzSettings } from "../fuzz/fuzz-settings.ts";
import { loadServiceModel } from "../fuzz/spec-operations.ts";
import type { ServiceName } from "../src/spec/spec-bundle.ts";
import type { TestServer } from "./support/test-server.ts";
import { expectData, forumClient, inboxClient, startTestServer } from "./support/test-server.ts";

// Requests generated from the bundled specs, valid and invalid, sent over HTTP to a real server by a key that also
// knows the ids of another key's data: another tenant's in the inbox, where it must stay hidden, and another agent's
// in the one forum, where every agent sees it. Every answer is judged against the spec (fuzz/answer-checks.ts).
// Each run first visits every operation until it answers 2xx, then draws from all of them in what is left of its time
// limit. A run is reproducible from its seed; FUZZ_SEED, FUZZ_RUNS, FUZZ_TIME_LIMIT_MS and FUZZ_COVERAGE_ROUNDS
// override the defaults.

const SECRET = "zq-private-marker";
const NEVER_ISSUED_KEY = "pk_never_issued_0000000000000000";

/** The domains the test server hosts: its default. */
const HOSTED_DOMAINS = ["pigeonhole.test"];

let t: TestServer;
/**
 * Per service: another key, whose data is marked with SECRET in the inbox (a tenant) and is everyone's in the forum
 * (an agent), and a key that never creates anything.
 */
const keys = { inbox: { other: "", empty: "" }, forum: { other: "", empty: "" } };
let others: Awaited<ReturnType<typeof createOtherKeyData>>;
let own: Awaited<ReturnType<typeof createOwnDelivery>>;
let ownAttachments: Awaited<ReturnType<typeof createOwnAttachments>>;
let ownDrafts: Awaited<ReturnType<typeof createOwnDrafts>>;
let ownListEntries: Awaited<ReturnType<typeof createOwnListEntries>>;
const reports: [FuzzReport, FuzzSettings][] = [];

async function createOtherKeyData() {
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
  const community = expectData(
    await forum.POST("/api/v1/communities", { body: { name: "others", display_name: "Another agent's" } }),
  ).community;
  const post = expectData(
    await forum.POST("/api/v1/posts", {
      body: { title: "Another agent's post", content: "Vote on it.", community_id: community.id },
    }),
  ).post;
  const comment = expectData(
    await forum.POST("/api/v1/posts/{post_id}/comments", {
      params: { path: { post_id: post.id } },
      body: { content: "Another agent's comment." },
    }),
  ).comment;
  return {
    inbox: [created, { ...sent, inbox_id: created.inbox_id }, webhook] as const,
    forum: [{ community }, { post }, { comment }] as const,
  };
}

/** Webhooks, and inboxes sending to them, for deliveries; drawn deletions remove some, the rest stay reachable. */
const OWN_DELIVERY_WEBHOOKS = 3;

/**
 * Webhooks of the fuzzing key with one delivery in their logs: redelivery needs a delivery, which only a webhook that
 * existed before a send has, a chain too long for drawn requests to build often.
 */
async function createOwnDelivery() {
  const inbox = t.inbox;
  const webhooks = [];
  for (let copy = 0; copy < OWN_DELIVERY_WEBHOOKS; copy++) {
    webhooks.push(
      expectData(await inbox.POST("/v0/webhooks", { body: { url: `https://example.com/own-hook-${copy}` } })),
    );
  }
  // Sends from several inboxes: deleting an inbox removes its pending deliveries, so one inbox would be one point of
  // failure for every delivery.
  const senders = [];
  for (let copy = 0; copy < OWN_DELIVERY_WEBHOOKS; copy++) {
    const created = expectData(await inbox.POST("/v0/inboxes", { body: { username: `fuzzer-${copy}` } }));
    expectData(
      await inbox.POST("/v0/inboxes/{inbox_id}/messages", {
        params: { path: { inbox_id: created.inbox_id } },
        body: { to: "someone@example.com", subject: "Own", text: "Own." },
      }),
    );
    senders.push(created);
  }
  const logs = [];
  for (const webhook of webhooks) {
    const params = { path: { webhook_id: webhook.webhook_id } };
    logs.push({ webhook, log: expectData(await inbox.GET("/v0/webhooks/{webhook_id}/deliveries", { params })) });
  }
  return { senders, logs };
}

/** Inboxes each holding a sent message with an attachment; drawn deletions remove some, the rest stay reachable. */
const OWN_ATTACHMENT_INBOXES = 3;

/**
 * A download needs an attachment named along with its message and inbox, a chain drawn requests seldom build; these
 * are filed with both.
 */
async function createOwnAttachments() {
  const made = [];
  for (let copy = 0; copy < OWN_ATTACHMENT_INBOXES; copy++) {
    const created = expectData(await t.inbox.POST("/v0/inboxes", { body: { username: `fuzzer-files-${copy}` } }));
    const params = { path: { inbox_id: created.inbox_id } };
    const body = {
      to: "someone@example.com",
      text: "Own.",
      attachments: [{ filename: "own.txt", content: "T3duLg==" }],
    };
    const sent = expectData(await t.inbox.POST("/v0/inboxes/{inbox_id}/messages", { params, body }));
    const message = expectData(
      await t.inbox.GET("/v0/inboxes/{inbox_id}/messages/{message_id}", {
        params: { path: { inbox_id: created.inbox_id, message_id: sent.message_id } },
      }),
    );
    made.push(message);
  }
  // A download link's token, for the keyless download: only an attachment asked for as JSON answers one.
  const tokens = [];
  for (const message of made) {
    for (const attachment of message.attachments ?? []) {
      const address = `${t.server.inbox.url}/v0/inboxes/${encodeURIComponent(message.inbox_id)}/messages/${encodeURIComponent(message.message_id)}/attachments/${encodeURIComponent(attachment.attachment_id)}`;
      const response = await fetch(address, {
        headers: { Authorization: `Bearer ${t.server.inbox.apiKey}`, Accept: "application/json" },
      });
      const link = (await response.json()) as { download_url: string };
      const token = decodeURIComponent(new URL(link.download_url).pathname.split("/").at(-1) ?? "");
      tokens.push({ token, inboxId: message.inbox_id, messageId: message.message_id });
    }
  }
  return { made, tokens };
}

/** Drafts ready to send: drawn sends and deletions use some up, the rest stay reachable. */
const OWN_DRAFTS = 36;
/** Inboxes holding them: a drawn deletion of one inbox takes its drafts along, the others' stay. */
const OWN_DRAFT_INBOXES = 9;

/**
 * Drafts with a recipient: a draft drawn from its schema seldom has one, and only such a draft can be sent. Each holds
 * an attachment, which only an update naming that draft's own attachment id removes. Each is filed with its inbox,
 * which removes it when deleted.
 */
async function createOwnDrafts() {
  const inboxes = [];
  for (let copy = 0; copy < OWN_DRAFT_INBOXES; copy++) {
    inboxes.push(expectData(await t.inbox.POST("/v0/inboxes", { body: { username: `fuzzer-drafts-${copy}` } })));
  }
  const made = [];
  for (let copy = 0; copy < OWN_DRAFTS; copy++) {
    const inbox = inboxes[copy % inboxes.length];
    if (inbox === undefined) {
      break;
    }
    const params = { path: { inbox_id: inbox.inbox_id } };
    const attachments = [{ filename: "draft.txt", content: "RHJhZnQu" }];
    const body = { to: ["someone@example.com"], subject: `Draft ${copy}`, text: "Own.", attachments };
    made.push(expectData(await t.inbox.POST("/v0/inboxes/{inbox_id}/drafts", { params, body })));
  }
  return { inboxes, made };
}

/** Entries of the sending inboxes' own lists, one in each list of each: reading or removing one needs one to exist. */
async function createOwnListEntries(senders: readonly { inbox_id: string }[]) {
  const made = [];
  for (const { inbox_id } of senders) {
    for (const [direction, type, entry] of [
      ["receive", "block", "spam@example.com"],
      ["send", "allow", "example.com"],
    ] as const) {
      const response = await fetch(
        `${t.server.inbox.url}/v0/inboxes/${encodeURIComponent(inbox_id)}/lists/${direction}/${type}`,
        {
          method: "POST",
          headers: { Authorization: `Bearer ${t.server.inbox.apiKey}`, "Content-Type": "application/json" },
          body: JSON.stringify({ entry }),
        },
      );
      expect(response.status).toBe(200);
      made.push({ context: { inbox_id, direction, type }, answer: (await response.json()) as unknown });
    }
  }
  return made;
}

beforeAll(async () => {
  t = await startTestServer();
  keys.inbox.other = await t.server.createApiKey("inbox");
  keys.inbox.empty = await t.server.createApiKey("inbox");
  keys.forum.other = await t.server.createApiKey("forum", { name: "other-agent" });
  keys.forum.empty = await t.server.createApiKey("forum", { name: "empty" });
  others = await createOtherKeyData();
  own = await createOwnDelivery();
  ownAttachments = await createOwnAttachments();
  ownDrafts = await createOwnDrafts();
  ownListEntries = await createOwnListEntries(own.senders);
});

afterAll(async () => {
  for (const [report, settings] of reports) {
    process.stdout.write(
      `\nFuzz summary (seed ${settings.seed}, up to ${settings.runs} requests)\n${report.summary()}\n`,
    );
  }
  await t.server.close();
});

describe.each(["inbox", "forum"] as const)("the %s API, fuzzed from its spec", (service: ServiceName) => {
  const model = loadServiceModel(service);
  // Compiled while the suite is collected, before any connection to the server is open (see prepareFuzzRun).
  const prepared = prepareFuzzRun(model, service === "inbox" ? HOSTED_DOMAINS : null);
  const operationIds = model.operations.map((operation) => operation.operationId).sort();
  const report = new FuzzReport(service, model.operations.length);
  // The budget grows with the operations, so that a spec gaining operations still reaches each one's success path.
  const settings = fuzzSettings(model.operations.length);
  reports.push([report, settings]);

  it(
    "answers every generated request as the spec documents, with no failure of any kind",
    async () => {
      const address = service === "inbox" ? t.server.inbox : t.server.forum;
      const run = createFuzzRun(prepared, report, {
        baseUrl: address.url,
        keys: { own: address.apiKey, empty: keys[service].empty, bad: NEVER_ISSUED_KEY },
        isolation: service === "inbox" ? { secret: SECRET } : null,
      });
      for (const record of others[service]) {
        run.pool.harvest(record, "foreign");
      }
      if (service === "inbox") {
        for (const sender of own.senders) {
          run.pool.harvest(sender, "own");
        }
        for (const { webhook, log } of own.logs) {
          run.pool.harvest(webhook, "own");
          run.pool.harvest(log, "own", { webhook_id: webhook.webhook_id });
        }
        for (const inbox of ownDrafts.inboxes) {
          run.pool.harvest(inbox, "own");
        }
        for (const draft of ownDrafts.made) {
          run.pool.adopt(draft.inbox_id, run.pool.harvest(draft, "own", { inbox_id: draft.inbox_id }));
        }
        for (const { context, answer } of ownListEntries) {
          run.pool.adopt(context.inbox_id, run.pool.harvest(answer, "own", context));
        }
        // A link opens its message of its inbox: it goes when either goes.
        for (const { token, inboxId, messageId } of ownAttachments.tokens) {
          run.pool.add("token", token, "own");
          run.pool.adopt(inboxId, [{ key: "token", id: token }]);
          run.pool.adopt(messageId, [{ key: "token", id: token }]);
        }
        // Each message whole, its inbox among its ids: an attachment is drawn with the message, thread and inbox that
        // hold it only when all of those are filed as the fuzzing tenant's own.
        for (const message of ownAttachments.made) {
          const filed = run.pool.harvest(message, "own");
          run.pool.adopt(
            message.inbox_id,
            filed.filter((each) => each.key !== "inbox_id"),
          );
        }
      }
      await run.run(settings);

      expect(report.operationsSent().sort()).toEqual(operationIds);
      expect(report.failureCounts(), report.summary()).toEqual({});
    },
    settings.timeLimitMs + 60_000,
  );

  // The coverage pass comes before the rest of the run, so this holds however soon the time limit stops the run.
  it("reaches the success path of every operation", () => {
    const cut = report.coverageCut
      ? `the time limit (${settings.timeLimitMs} ms) stopped the coverage pass; `
      : `within ${settings.coverageRounds} requests each; `;
    expect(report.operationsSucceeded().sort(), `${cut}${report.summary()}`).toEqual(operationIds);
  });
});

/** Counters that other agents' own acts move: not part of what an author wrote. */
const DERIVED_COUNTERS = ["upvotes", "downvotes", "comment_count", "subscriber_count"] as const;

/** A forum record without its derived counters. */
function asWritten<T extends object>(record: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(record).filter(([key]) => !(DERIVED_COUNTERS as readonly string[]).includes(key)),
  ) as Partial<T>;
}

describe("after fuzzing", () => {
  it("still holds the other tenant's inbox data intact", async () => {
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
  });

  it("still holds what another agent wrote in the forum: only its author may change it", async () => {
    const [{ community }, { post }, { comment }] = others.forum;
    const forumApi = forumClient(t.server.forum.url, keys.forum.other);
    // Unchanged means as its author wrote it: content and authorship, where it lives, and what only its author or the
    // community's moderators may set (a pin). Counters other agents move by their own acts (votes, comments,
    // subscriptions) may have changed, and are left out.
    const read = expectData(await forumApi.GET("/api/v1/posts/{post_id}", { params: { path: { post_id: post.id } } }));
    expect(asWritten(read.post)).toEqual(asWritten(post));
    const comments = expectData(
      await forumApi.GET("/api/v1/posts/{post_id}/comments", {
        params: { path: { post_id: post.id }, query: { limit: 100 } },
      }),
    ).comments;
    expect(comments.map(asWritten)).toContainEqual(asWritten(comment));
    const readCommunity = expectData(
      await forumApi.GET("/api/v1/communities/{community_name}", {
        params: { path: { community_name: community.name } },
      }),
    ).community;
    expect(asWritten(readCommunity)).toEqual(asWritten(community));
  });
});
