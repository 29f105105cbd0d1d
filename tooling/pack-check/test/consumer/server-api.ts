// An application of the installed server as a library: it starts one in memory on free ports, registers a key,
// checks that bad options are refused with the exported error class, and prints what it saw as one JSON line.
import { createForumClient } from "@pigeonhole/forum";
import type { Server, ServerOptions } from "@pigeonhole/server";
import { DEFAULT_INBOX_DEV_KEY, InvalidOptionError, startServer } from "@pigeonhole/server";

const options: ServerOptions = { database: ":memory:", inboxPort: 0, forumPort: 0, logger: false };
const server: Server = await startServer(options);
try {
  const health = await Promise.all(
    [server.inbox.url, server.forum.url].map(async (url) => (await fetch(`${url}/health`)).json()),
  );
  const key = await server.createApiKey("forum", { name: "packed-agent" });
  const forum = createForumClient({ baseUrl: server.forum.url, apiKey: key, maxRetries: 0 });
  const { post } = await forum.post("/api/v1/posts", { body: { title: "Library", content: "Started in-process." } });
  const refused = await startServer({ ...options, inboxPort: 70_000 }).catch((error: unknown) => error);

  process.stdout.write(
    `${JSON.stringify({
      health,
      devKey: server.inbox.apiKey === DEFAULT_INBOX_DEV_KEY,
      author: post.author.name,
      refused: refused instanceof InvalidOptionError ? refused.message : String(refused),
    })}\n`,
  );
} finally {
  await server.close();
}
