import type { SendMessageRequest } from "@pigeonhole/inbox-types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestServer } from "../../test/support/test-server.ts";
import { expectData, ManualClock, startTestServer } from "../../test/support/test-server.ts";

let t: TestServer;
const clock = new ManualClock();
beforeAll(async () => {
  t = await startTestServer({ clock });
});
afterAll(() => t.server.close());

const newInbox = async (username: string) =>
  expectData(await t.inbox.POST("/v0/inboxes", { body: { username } })).inbox_id;

const send = async (from: string, body: SendMessageRequest) => {
  clock.advance(1_000);
  return expectData(
    await t.inbox.POST("/v0/inboxes/{inbox_id}/messages", { params: { path: { inbox_id: from } }, body }),
  );
};

describe("threads", () => {
  it("groups a conversation by In-Reply-To and References in each inbox, oldest first", async () => {
    const support = await newInbox("thread-support");
    const ada = await newInbox("thread-ada");

    const first = await send(support, { to: ada, subject: "Your invoice", text: "Here it is.", labels: ["billing"] });
    const adaCopy = expectData(
      await t.inbox.GET("/v0/inboxes/{inbox_id}/messages/{message_id}", {
        params: { path: { inbox_id: ada, message_id: first.message_id } },
      }),
    );
    const reply = await send(ada, {
      to: support,
      subject: "Re: Your invoice",
      text: "Thanks!",
      headers: { "In-Reply-To": first.message_id, References: first.message_id },
    });
    // The reply joins the thread of the message it answers, in the replier's inbox too.
    expect(reply.thread_id).toBe(adaCopy.thread_id);
    const followUp = await send(support, {
      to: ada,
      subject: "Re: Your invoice",
      text: "You are welcome.",
      headers: { "in-reply-to": reply.message_id, references: `${first.message_id} ${reply.message_id}` },
    });
    expect(followUp.thread_id).toBe(first.thread_id);

    const thread = expectData(
      await t.inbox.GET("/v0/inboxes/{inbox_id}/threads/{thread_id}", {
        params: { path: { inbox_id: support, thread_id: first.thread_id } },
      }),
    );
    expect(thread).toMatchObject({
      thread_id: first.thread_id,
      inbox_id: support,
      subject: "Your invoice",
      message_count: 3,
      participants: [support, ada],
      labels: ["sent", "billing", "received", "unread"],
    });
    expect(thread.messages.map((m) => [m.message_id, m.labels])).toEqual([
      [first.message_id, ["sent", "billing"]],
      [reply.message_id, ["received", "unread"]],
      [followUp.message_id, ["sent"]],
    ]);
    expect(thread.messages[1]?.in_reply_to).toBe(first.message_id);
    expect(thread.messages[2]?.references).toEqual([first.message_id, reply.message_id]);
    expect(thread.last_message_at).toBe(thread.messages[2]?.timestamp);
    expect(thread.updated_at).toBe(thread.last_message_at);
    expect(thread.created_at).toBe(thread.messages[0]?.created_at);

    const adaThread = expectData(
      await t.inbox.GET("/v0/inboxes/{inbox_id}/threads/{thread_id}", {
        params: { path: { inbox_id: ada, thread_id: adaCopy.thread_id } },
      }),
    );
    expect(adaThread.messages.map((m) => m.labels)).toEqual([["received", "unread"], ["sent"], ["received", "unread"]]);
  });

  it("starts a new thread for a reply to a message this inbox does not hold", async () => {
    const inbox = await newInbox("thread-stranger");
    const a = await send(inbox, { to: "x@example.com", text: "first" });
    const b = await send(inbox, {
      to: "x@example.com",
      text: "second",
      headers: { "In-Reply-To": "<unknown@example.com>" },
    });
    expect(b.thread_id).not.toBe(a.thread_id);
    const message = expectData(
      await t.inbox.GET("/v0/inboxes/{inbox_id}/messages/{message_id}", {
        params: { path: { inbox_id: inbox, message_id: b.message_id } },
      }),
    );
    expect(message.in_reply_to).toBe("<unknown@example.com>");
  });

  it("lists threads newest first by creation, stable while older threads get replies", async () => {
    const inbox = await newInbox("thread-list");
    const threads = [];
    for (const subject of ["a", "b", "c"]) {
      threads.push(await send(inbox, { to: "x@example.com", subject }));
    }
    const page = expectData(
      await t.inbox.GET("/v0/inboxes/{inbox_id}/threads", {
        params: { path: { inbox_id: inbox }, query: { limit: 2 } },
      }),
    );
    expect(page.threads.map((thread) => thread.subject)).toEqual(["c", "b"]);
    // A reply to the oldest thread does not move it onto a page already read.
    await send(inbox, {
      to: "x@example.com",
      subject: "Re: a",
      headers: { "In-Reply-To": threads[0]?.message_id ?? "" },
    });
    const rest = expectData(
      await t.inbox.GET("/v0/inboxes/{inbox_id}/threads", {
        params: { path: { inbox_id: inbox }, query: { limit: 2, page_token: page.next_page_token ?? "" } },
      }),
    );
    expect(rest.threads.map((thread) => [thread.subject, thread.message_count])).toEqual([["a", 2]]);
    expect(rest.next_page_token).toBeNull();
  });

  it("answers 404 for a thread of another inbox", async () => {
    const one = await newInbox("thread-one");
    const two = await newInbox("thread-two");
    const sent = await send(one, { to: "x@example.com" });
    const { response, error } = await t.inbox.GET("/v0/inboxes/{inbox_id}/threads/{thread_id}", {
      params: { path: { inbox_id: two, thread_id: sent.thread_id } },
    });
    expect(response.status).toBe(404);
    expect(error?.error.details).toEqual({ field: "thread_id", code: "NOT_FOUND" });
  });
});
