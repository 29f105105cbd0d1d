// An agent driven only through `pigeonhole-mcp`, over stdio and over Streamable HTTP, against the real server:
// it creates inboxes, sends, waits for and reads mail, posts and votes on the forum, and reads the errors it causes.
import { once } from "node:events";
import { createServer } from "node:net";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { generatedTools, WAIT_FOR_MESSAGE_TOOL } from "@pigeonhole/mcp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Connection, connectHttp, connectStdio, type McpEnv } from "./mcp-connections.ts";
import { serverForFile } from "./server-for-file.ts";

const local = serverForFile();

const TOOL_NAMES = [
  "inbox_list_inboxes",
  "inbox_create_inbox",
  "inbox_get_inbox",
  "inbox_list_messages",
  "inbox_wait_for_message",
  "inbox_send_message",
  "inbox_get_message",
  "inbox_update_message",
  "inbox_reply_to_message",
  "inbox_list_threads",
  "inbox_get_thread",
  "forum_get_me",
  "forum_list_communities",
  "forum_create_community",
  "forum_get_community",
  "forum_list_posts",
  "forum_create_post",
  "forum_get_post",
  "forum_list_comments",
  "forum_create_comment",
  "forum_vote_post",
  "forum_get_comment",
  "forum_vote_comment",
  "forum_pin_post",
  "forum_delete_pin",
  "forum_list_moderators",
  "forum_add_moderator",
  "forum_delete_moderator",
  "forum_get_agent_profile",
  "forum_follow_agent",
  "forum_delete_follow",
  "forum_subscribe_community",
  "forum_delete_subscription",
  "forum_get_feed",
  "forum_list_search_results",
];

/** The JSON a tool answered: its structured content, which the text block repeats. */
function structured(result: CallToolResult): Record<string, unknown> {
  expect(result.isError ?? false, JSON.stringify(result.content)).toBe(false);
  const [block] = result.content;
  expect(block?.type === "text" ? JSON.parse(block.text) : undefined).toEqual(result.structuredContent);
  return result.structuredContent as Record<string, unknown>;
}

/** The error a tool answered, as the model reads it from the text block. */
function toolError(result: CallToolResult): Record<string, unknown> {
  expect(result.isError).toBe(true);
  const [block] = result.content;
  return block?.type === "text" ? (JSON.parse(block.text) as { error: Record<string, unknown> }).error : {};
}

/** A port of 127.0.0.1 that nothing listens on: one the system gave out and took back. */
async function closedPort(): Promise<number> {
  const server = createServer().listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, "close");
  return port;
}

const transports = [
  ["stdio", connectStdio],
  ["Streamable HTTP", connectHttp],
] as const;

describe.each(transports)("over %s", (transport, connect) => {
  const label = transport === "stdio" ? "stdio" : "http";
  let env: McpEnv;
  let agent: Connection;
  let voter: Connection;
  const call = async (name: string, args: Record<string, unknown>, on: Connection = agent) =>
    (await on.client.callTool({ name, arguments: args })) as CallToolResult;

  beforeAll(async () => {
    const { server } = local;
    env = {
      PIGEONHOLE_INBOX_URL: server.inbox.url,
      PIGEONHOLE_INBOX_API_KEY: await server.createApiKey("inbox"),
      PIGEONHOLE_FORUM_URL: server.forum.url,
      PIGEONHOLE_FORUM_API_KEY: await server.createApiKey("forum", { name: `writer-${label}` }),
    };
    agent = await connect(env);
    voter = await connect({
      ...env,
      PIGEONHOLE_FORUM_API_KEY: await server.createApiKey("forum", { name: `voter-${label}` }),
    });
  });
  afterAll(async () => {
    await agent?.close();
    await voter?.close();
  });

  it("lists the tools the specs mark, with the specs' schemas, and never prints a key", async () => {
    const { tools } = await agent.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(TOOL_NAMES);
    for (const generated of generatedTools) {
      const listed = tools.find((tool) => tool.name === generated.name);
      expect(listed?.inputSchema).toEqual(generated.inputSchema);
      expect(listed?.outputSchema).toEqual(generated.outputSchema ?? undefined);
      expect(listed?.description).toBe(generated.description);
    }
    expect(tools.find((tool) => tool.name === WAIT_FOR_MESSAGE_TOOL.name)?.inputSchema).toEqual(
      WAIT_FOR_MESSAGE_TOOL.inputSchema,
    );
    expect(agent.stderr()).toContain(`inbox: ${env.PIGEONHOLE_INBOX_URL}`);
    expect(agent.stderr()).not.toContain(env.PIGEONHOLE_INBOX_API_KEY);
    expect(agent.stderr()).not.toContain(env.PIGEONHOLE_FORUM_API_KEY);
  });

  it("creates inboxes, sends, waits for the message sent during the wait, and reads it", async () => {
    const reader = structured(await call("inbox_create_inbox", { username: `reader-${label}` }));
    const writer = structured(await call("inbox_create_inbox", { username: `writer-${label}` }));
    expect(reader.inbox_id).toBe(`reader-${label}@pigeonhole.test`);

    // The wait looks for unread mail first; once the server has answered that look, the message is sent, so it
    // can only reach the wait through the live event stream.
    const looked = local.nextRequest(
      (line) =>
        line.method === "GET" &&
        String(line.path).includes(`reader-${label}`) &&
        String(line.path).endsWith("/messages"),
    );
    const waiting = call("inbox_wait_for_message", { inbox_id: reader.inbox_id, timeout_seconds: 30 });
    await looked;
    const sent = structured(
      await call("inbox_send_message", {
        inbox_id: writer.inbox_id,
        to: reader.inbox_id,
        subject: "Lunch at noon?",
        text: "Shall we meet at the usual place?",
      }),
    );
    const waited = structured(await waiting);
    expect(waited).toMatchObject({
      timed_out: false,
      message: { message_id: sent.message_id, subject: "Lunch at noon?", text: "Shall we meet at the usual place?" },
    });
    expect((waited.message as { labels: string[] }).labels).not.toContain("unread");

    const listed = structured(await call("inbox_list_messages", { inbox_id: reader.inbox_id }));
    expect(listed).toMatchObject({ count: 1, messages: [{ message_id: sent.message_id, from: writer.inbox_id }] });
    const read = structured(
      await call("inbox_get_message", { inbox_id: reader.inbox_id, message_id: sent.message_id }),
    );
    expect(read).toMatchObject({ subject: "Lunch at noon?", labels: ["received"] });

    const replied = structured(
      await call("inbox_reply_to_message", {
        inbox_id: reader.inbox_id,
        message_id: sent.message_id,
        text: "Yes, see you there.",
      }),
    );
    // Each inbox keeps its own copy of the conversation: the reply joins the reader's thread and the writer's.
    expect(replied.thread_id).toBe(read.thread_id);
    const thread = structured(await call("inbox_get_thread", { inbox_id: writer.inbox_id, thread_id: sent.thread_id }));
    expect((thread.messages as { text: string }[]).map((message) => message.text)).toEqual([
      "Shall we meet at the usual place?",
      "Yes, see you there.",
    ]);
  });

  it("takes mail that arrived before the wait at once, and times out when none comes", async () => {
    const inbox = structured(await call("inbox_create_inbox", { username: `queue-${label}` }));
    await call("inbox_send_message", {
      inbox_id: inbox.inbox_id,
      to: inbox.inbox_id,
      subject: "Note to self",
      text: "1",
    });
    const first = structured(await call("inbox_wait_for_message", { inbox_id: inbox.inbox_id, timeout_seconds: 30 }));
    expect(first).toMatchObject({ timed_out: false, message: { subject: "Note to self" } });
    // The one message is read now: nothing is unread and nothing is coming, so the shortest wait runs out.
    const none = structured(await call("inbox_wait_for_message", { inbox_id: inbox.inbox_id, timeout_seconds: 1 }));
    expect(none).toEqual({ message: null, timed_out: true });
  });

  it("posts on the forum, and another agent votes on the post", async () => {
    const me = structured(await call("forum_get_me", {}));
    expect(me).toMatchObject({ agent: { name: `writer-${label}` } });
    const { post } = structured(
      await call("forum_create_post", { title: `Hello from ${label}`, content: "An agent's first post." }),
    ) as { post: { id: string } };
    const listed = structured(await call("forum_list_posts", { sort: "new" }));
    expect((listed.posts as { id: string }[]).map((item) => item.id)).toContain(post.id);
    const vote = structured(await call("forum_vote_post", { post_id: post.id, direction: "up" }, voter));
    expect(vote).toMatchObject({ post_id: post.id, vote: "up", upvotes: 1, action: "upvoted" });
    const comment = structured(await call("forum_create_comment", { post_id: post.id, content: "Welcome!" }, voter));
    expect(comment).toMatchObject({ comment: { content: "Welcome!", author: { name: `voter-${label}` } } });
  });

  it("answers the API's errors as tool errors with their message, code and field", async () => {
    const inbox = structured(await call("inbox_create_inbox", { username: `errors-${label}` }));
    expect(
      toolError(await call("inbox_send_message", { inbox_id: inbox.inbox_id, to: "not an address", text: "x" })),
    ).toMatchObject({
      status: 400,
      code: "INVALID_EMAIL",
      field: "to",
      message: expect.any(String),
    });
    expect(toolError(await call("inbox_get_inbox", { inbox_id: `nobody-${label}@pigeonhole.test` }))).toMatchObject({
      status: 404,
      code: "NOT_FOUND",
    });
    expect(
      toolError(
        await call("inbox_wait_for_message", { inbox_id: `nobody-${label}@pigeonhole.test`, timeout_seconds: 5 }),
      ),
    ).toMatchObject({ code: "NOT_FOUND", field: "inbox_id" });
    const { post } = structured(await call("forum_create_post", { title: "Mine", content: "Self vote?" })) as {
      post: { id: string };
    };
    expect(toolError(await call("forum_vote_post", { post_id: post.id, direction: "up" }))).toMatchObject({
      status: 400,
      code: "SELF_VOTE",
      hint: expect.any(String),
    });
  });

  it("answers bad arguments with a tool error naming the argument, and keeps serving", async () => {
    expect(toolError(await call("inbox_get_message", { inbox_id: "a@pigeonhole.test" }))).toEqual({
      code: "INVALID_ARGUMENTS",
      field: "message_id",
      message: "message_id is required.",
    });
    expect(toolError(await call("inbox_list_messages", { inbox_id: "a@pigeonhole.test", limit: "ten" }))).toMatchObject(
      {
        code: "INVALID_ARGUMENTS",
        field: "limit",
      },
    );
    expect(toolError(await call("forum_vote_post", { post_id: "p", direction: "sideways" }))).toMatchObject({
      code: "INVALID_ARGUMENTS",
      field: "direction",
    });
    expect(
      toolError(await call("inbox_wait_for_message", { inbox_id: "a@pigeonhole.test", timeout_seconds: 3600 })),
    ).toMatchObject({
      code: "INVALID_ARGUMENTS",
      field: "timeout_seconds",
    });
    expect(toolError(await call("forum_get_me", { surprise: true }))).toMatchObject({ field: "surprise" });
    await expect(call("inbox_delete_everything", {})).rejects.toThrow(/Unknown tool/);
    expect(structured(await call("forum_get_me", {}))).toMatchObject({ success: true });
  });
});

describe("configuration", () => {
  it("offers no tools of a service without a key, and says so", async () => {
    const forumOnly = await connectStdio({
      PIGEONHOLE_FORUM_URL: local.server.forum.url,
      PIGEONHOLE_FORUM_API_KEY: await local.server.createApiKey("forum", { name: "forum-only" }),
    });
    try {
      const { tools } = await forumOnly.client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(TOOL_NAMES.filter((name) => name.startsWith("forum_")));
      expect(forumOnly.stderr()).toContain("inbox: no tools, because PIGEONHOLE_INBOX_API_KEY is not set");
    } finally {
      await forumOnly.close();
    }
  });

  it("answers an unreachable service as a connection error naming its address", async () => {
    const closed = await closedPort();
    const nowhere = await connectStdio({
      PIGEONHOLE_INBOX_URL: `http://127.0.0.1:${closed}`,
      PIGEONHOLE_INBOX_API_KEY: "k",
    });
    try {
      const result = (await nowhere.client.callTool({ name: "inbox_list_inboxes", arguments: {} })) as CallToolResult;
      expect(toolError(result)).toMatchObject({
        code: "CONNECTION_ERROR",
        // The client's message names the system error and the request.
        message: `The inbox service at http://127.0.0.1:${closed} did not answer: Connection error: ECONNREFUSED 127.0.0.1:${closed} (GET http://127.0.0.1:${closed}/v0/inboxes)`,
      });
    } finally {
      await nowhere.close();
    }
  });
});
