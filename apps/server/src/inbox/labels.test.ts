import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { InboxClient, TestServer } from "../../test/support/test-server.ts";
import { expectData, ManualClock, startTestServer } from "../../test/support/test-server.ts";

const clock = new ManualClock();
let t: TestServer;
let stranger: InboxClient;
beforeAll(async () => {
  t = await startTestServer({ clock });
  stranger = await t.newInboxTenant();
});
afterAll(() => t.server.close());

async function newInbox(username: string) {
  return expectData(await t.inbox.POST("/v0/inboxes", { body: { username } })).inbox_id;
}

async function send(from: string, to: string, headers?: Record<string, string>) {
  clock.advance(1000);
  return expectData(
    await t.inbox.POST("/v0/inboxes/{inbox_id}/messages", {
      params: { path: { inbox_id: from } },
      body: { to, subject: "Labels", text: "Hi", headers },
    }),
  );
}

function relabel(client: InboxClient, inboxId: string, messageId: string, body: object) {
  return client.PATCH("/v0/inboxes/{inbox_id}/messages/{message_id}", {
    params: { path: { inbox_id: inboxId, message_id: messageId } },
    body,
  });
}

describe("message labels", () => {
  it("starts received mail unread, changes labels and updated_at, and keeps the thread's labels in step", async () => {
    const from = await newInbox("labels-from");
    const to = await newInbox("labels-to");
    const first = await send(from, to);
    const second = await send(from, to, { "In-Reply-To": first.message_id });
    const received = expectData(
      await t.inbox.GET("/v0/inboxes/{inbox_id}/messages/{message_id}", {
        params: { path: { inbox_id: to, message_id: first.message_id } },
      }),
    );
    expect(received.labels).toEqual(["received", "unread"]);

    clock.advance(5000);
    const read = expectData(
      await relabel(t.inbox, to, first.message_id, { add_labels: ["important", "billing"], remove_labels: ["unread"] }),
    );
    expect(read.labels).toEqual(["received", "important", "billing"]);
    expect(read.updated_at).not.toBe(received.updated_at);
    expect(read.updated_at).toBe(new Date(clock.now()).toISOString());
    const thread = expectData(
      await t.inbox.GET("/v0/inboxes/{inbox_id}/threads/{thread_id}", {
        params: { path: { inbox_id: to, thread_id: read.thread_id } },
      }),
    );
    // The second message is still unread, so the thread still is.
    expect(thread.messages.map((m) => m.message_id)).toEqual([first.message_id, second.message_id]);
    expect(thread.labels).toEqual(["received", "important", "billing", "unread"]);

    const secondRead = expectData(await relabel(t.inbox, to, second.message_id, { remove_labels: ["unread"] }));
    expect(secondRead.labels).toEqual(["received"]);
    const after = expectData(
      await t.inbox.GET("/v0/inboxes/{inbox_id}/threads/{thread_id}", {
        params: { path: { inbox_id: to, thread_id: read.thread_id } },
      }),
    );
    expect(after.labels).toEqual(["received", "important", "billing"]);

    // Nothing to change: the message is answered as it is, updated_at included.
    clock.advance(5000);
    const unchanged = expectData(
      await relabel(t.inbox, to, first.message_id, { add_labels: ["important"], remove_labels: ["absent"] }),
    );
    expect(unchanged).toEqual(read);
  });

  it("refuses system labels, a label in both lists and more than 20 labels of its own", async () => {
    const from = await newInbox("labels-rules");
    const sent = await send(from, "ada@example.com");
    for (const [body, field] of [
      [{ add_labels: ["received"] }, "add_labels"],
      [{ remove_labels: ["sent"] }, "remove_labels"],
    ] as const) {
      const { error, response } = await relabel(t.inbox, from, sent.message_id, body);
      expect(response.status).toBe(400);
      expect(error?.error).toMatchObject({ type: "validation_error", details: { field, code: "SYSTEM_LABEL" } });
    }
    const both = await relabel(t.inbox, from, sent.message_id, { add_labels: ["x"], remove_labels: ["x"] });
    expect(both.response.status).toBe(400);
    expect(both.error?.error.details).toEqual({ field: "remove_labels", code: "INVALID_VALUE" });

    const twenty = Array.from({ length: 20 }, (_, index) => `label-${index}`);
    expect(expectData(await relabel(t.inbox, from, sent.message_id, { add_labels: twenty })).labels).toEqual([
      "sent",
      ...twenty,
    ]);
    const tooMany = await relabel(t.inbox, from, sent.message_id, { add_labels: ["one-more"] });
    expect(tooMany.response.status).toBe(400);
    expect(tooMany.error?.error.details).toEqual({ field: "add_labels", code: "TOO_LONG" });
    const swapped = expectData(
      await relabel(t.inbox, from, sent.message_id, { add_labels: ["one-more"], remove_labels: ["label-0"] }),
    );
    expect(swapped.labels).toEqual(["sent", ...twenty.slice(1), "one-more"]);
    const empty = await relabel(t.inbox, from, sent.message_id, { add_labels: [""] });
    expect(empty.response.status).toBe(400);
  });

  it("answers 404 for another key's inbox or message, and for a message of another inbox", async () => {
    const from = await newInbox("labels-private");
    const elsewhere = await newInbox("labels-elsewhere");
    const sent = await send(from, "ada@example.com");
    expect((await relabel(stranger, from, sent.message_id, { add_labels: ["x"] })).response.status).toBe(404);
    expect((await relabel(t.inbox, elsewhere, sent.message_id, { add_labels: ["x"] })).response.status).toBe(404);
    expect((await relabel(t.inbox, from, "<missing@x>", { add_labels: ["x"] })).response.status).toBe(404);
  });
});

describe("the labels filter", () => {
  it("lists only messages and threads carrying every label given, page by page without repeats or gaps", async () => {
    const from = await newInbox("filter-from");
    const to = await newInbox("filter-to");
    const sent: { message_id: string; thread_id: string }[] = [];
    for (let index = 0; index < 7; index++) {
      sent.push(await send(from, to));
    }
    // Messages 0, 2, 4, 6 are flagged; 0 and 4 are also read.
    for (const [index, message] of sent.entries()) {
      if (index % 2 === 0) {
        const remove = index % 4 === 0 ? ["unread"] : [];
        expectData(await relabel(t.inbox, to, message.message_id, { add_labels: ["flagged"], remove_labels: remove }));
      }
    }
    const walk = async (kind: "messages" | "threads", labels: string[]) => {
      const ids: string[] = [];
      let pageToken: string | undefined;
      for (let page = 0; page < 10; page++) {
        const query = { limit: 2, labels, ...(pageToken ? { page_token: pageToken } : {}) };
        const params = { params: { path: { inbox_id: to }, query } };
        if (kind === "messages") {
          const data = expectData(await t.inbox.GET("/v0/inboxes/{inbox_id}/messages", params));
          ids.push(...data.messages.map((m) => m.message_id));
          pageToken = data.next_page_token ?? undefined;
        } else {
          const data = expectData(await t.inbox.GET("/v0/inboxes/{inbox_id}/threads", params));
          ids.push(...data.threads.map((thread) => thread.thread_id));
          pageToken = data.next_page_token ?? undefined;
        }
        if (!pageToken) {
          break;
        }
      }
      return ids;
    };
    const ids = (indexes: number[]) => indexes.map((index) => sent[index]?.message_id).reverse();
    expect(await walk("messages", ["flagged"])).toEqual(ids([0, 2, 4, 6]));
    expect(await walk("messages", ["flagged", "unread"])).toEqual(ids([2, 6]));
    expect(await walk("messages", ["unread", "received"])).toEqual(ids([1, 2, 3, 5, 6]));
    expect(await walk("messages", ["nothing"])).toEqual([]);
    expect(await walk("messages", [])).toHaveLength(7);

    const threads = await walk("threads", ["flagged", "unread"]);
    expect(threads).toHaveLength(2);
    const threadOf = async (messageId: string) =>
      expectData(
        await t.inbox.GET("/v0/inboxes/{inbox_id}/messages/{message_id}", {
          params: { path: { inbox_id: to, message_id: messageId } },
        }),
      ).thread_id;
    expect(threads).toEqual([await threadOf(ids([6])[0] ?? ""), await threadOf(ids([2])[0] ?? "")]);

    const tooMany = await t.inbox.GET("/v0/inboxes/{inbox_id}/messages", {
      params: { path: { inbox_id: to }, query: { labels: Array.from({ length: 21 }, (_, i) => `l${i}`) } },
    });
    expect(tooMany.response.status).toBe(400);
  });
});
