import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { InboxClient, TestServer } from "../../test/support/test-server.ts";
import { expectData, startTestServer } from "../../test/support/test-server.ts";

// Every drafts operation through the spec-checking client: each answer must match the spec's schema and status.
let t: TestServer;
let stranger: InboxClient;
beforeAll(async () => {
  t = await startTestServer();
  stranger = await t.newInboxTenant();
});
afterAll(() => t.server.close());

async function newInbox(username: string) {
  return expectData(await t.inbox.POST("/v0/inboxes", { body: { username } })).inbox_id;
}

describe("drafts, as the spec documents them", () => {
  it("answers every operation in its documented shape", async () => {
    const support = await newInbox("drafts-support");
    const ada = await newInbox("drafts-ada");
    const question = expectData(
      await t.inbox.POST("/v0/inboxes/{inbox_id}/messages", {
        params: { path: { inbox_id: ada } },
        body: { to: support, cc: ["grace@example.com"], subject: "Invoice", text: "Where is it?" },
      }),
    );
    const reply = expectData(
      await t.inbox.POST("/v0/inboxes/{inbox_id}/drafts", {
        params: { path: { inbox_id: support } },
        body: { in_reply_to: question.message_id, reply_all: true, text: "Here.", labels: ["billing"] },
      }),
    );
    expect(reply).toMatchObject({
      to: [ada],
      cc: ["grace@example.com"],
      subject: "Re: Invoice",
      in_reply_to: question.message_id,
      references: [question.message_id],
      send_status: null,
      send_at: null,
    });
    const path = { inbox_id: support, draft_id: reply.draft_id };
    const sendAt = new Date(Date.now() + 60 * 60 * 1000).toISOString();
    const updated = expectData(
      await t.inbox.PATCH("/v0/inboxes/{inbox_id}/drafts/{draft_id}", {
        params: { path },
        body: {
          send_at: sendAt,
          add_attachments: [{ filename: "a.txt", content: Buffer.from("a").toString("base64") }],
        },
      }),
    );
    expect(updated).toMatchObject({ send_status: "scheduled", send_at: sendAt });
    expect(expectData(await t.inbox.GET("/v0/inboxes/{inbox_id}/drafts/{draft_id}", { params: { path } }))).toEqual(
      updated,
    );
    const listed = expectData(
      await t.inbox.GET("/v0/inboxes/{inbox_id}/drafts", { params: { path: { inbox_id: support } } }),
    );
    expect(listed.drafts.map((draft) => draft.draft_id)).toEqual([reply.draft_id]);
    const labelled = expectData(await t.inbox.GET("/v0/drafts", { params: { query: { labels: ["billing"] } } }));
    expect(labelled.drafts.map((draft) => draft.draft_id)).toEqual([reply.draft_id]);
    expect(
      expectData(await t.inbox.GET("/v0/drafts/{draft_id}", { params: { path: { draft_id: reply.draft_id } } }))
        .draft_id,
    ).toBe(reply.draft_id);

    const sent = expectData(await t.inbox.POST("/v0/inboxes/{inbox_id}/drafts/{draft_id}/send", { params: { path } }));
    const received = expectData(
      await t.inbox.GET("/v0/inboxes/{inbox_id}/messages/{message_id}", {
        params: { path: { inbox_id: ada, message_id: sent.message_id } },
      }),
    );
    expect(received).toMatchObject({
      thread_id: question.thread_id,
      subject: "Re: Invoice",
      in_reply_to: question.message_id,
    });
    expect(received.attachments.map((attachment) => attachment.filename)).toEqual(["a.txt"]);
    const gone = await t.inbox.GET("/v0/inboxes/{inbox_id}/drafts/{draft_id}", { params: { path } });
    expect(gone.response.status).toBe(404);

    const other = expectData(
      await t.inbox.POST("/v0/inboxes/{inbox_id}/drafts", { params: { path: { inbox_id: support } }, body: {} }),
    );
    const deleted = await t.inbox.DELETE("/v0/inboxes/{inbox_id}/drafts/{draft_id}", {
      params: { path: { inbox_id: support, draft_id: other.draft_id } },
    });
    expect(deleted.response.status).toBe(204);
  });

  it("answers 404 for a draft of another pod, and to a body that would be refused", async () => {
    const support = await newInbox("drafts-private");
    const mine = expectData(
      await t.inbox.POST("/v0/inboxes/{inbox_id}/drafts", { params: { path: { inbox_id: support } }, body: {} }),
    );
    const theirs = await stranger.GET("/v0/drafts/{draft_id}", { params: { path: { draft_id: mine.draft_id } } });
    expect(theirs.response.status).toBe(404);
    // The draft is looked for before the body is judged.
    const missing = await t.inbox.PATCH("/v0/inboxes/{inbox_id}/drafts/{draft_id}", {
      params: { path: { inbox_id: support, draft_id: "drf_missing" } },
      body: { send_at: "2001-01-01T00:00:00Z", add_labels: ["sent"] },
    });
    expect(missing.response.status).toBe(404);
  });

  it("sends a draft once when several sends of it race", async () => {
    const from = await newInbox("drafts-race-from");
    const to = await newInbox("drafts-race-to");
    const draft = expectData(
      await t.inbox.POST("/v0/inboxes/{inbox_id}/drafts", {
        params: { path: { inbox_id: from } },
        body: { to: [to], subject: "Once" },
      }),
    );
    const path = { inbox_id: from, draft_id: draft.draft_id };
    const answers = await Promise.all(
      Array.from({ length: 4 }, () =>
        t.inbox.POST("/v0/inboxes/{inbox_id}/drafts/{draft_id}/send", { params: { path } }),
      ),
    );
    const sent = answers.filter((answer) => answer.response.status === 200).map((answer) => answer.data?.message_id);
    expect(sent.length).toBeGreaterThan(0);
    expect(new Set(sent).size).toBe(1);
    for (const answer of answers) {
      expect([200, 404]).toContain(answer.response.status);
    }
    const received = expectData(
      await t.inbox.GET("/v0/inboxes/{inbox_id}/messages", { params: { path: { inbox_id: to } } }),
    );
    expect(received.messages).toHaveLength(1);
  });

  it("deletes an inbox's drafts with the inbox", async () => {
    const doomed = await newInbox("drafts-doomed");
    const draft = expectData(
      await t.inbox.POST("/v0/inboxes/{inbox_id}/drafts", { params: { path: { inbox_id: doomed } }, body: {} }),
    );
    await t.inbox.DELETE("/v0/inboxes/{inbox_id}", { params: { path: { inbox_id: doomed } } });
    const gone = await t.inbox.GET("/v0/drafts/{draft_id}", { params: { path: { draft_id: draft.draft_id } } });
    expect(gone.response.status).toBe(404);
  });
});
