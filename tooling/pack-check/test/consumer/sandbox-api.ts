// An application of the installed sandbox as a library: it starts one in memory on free ports, registers a key,
// checks that bad options are refused with the exported error class, and prints what it saw as one JSON line.
import { createForumClient } from "@pigeonhole/forum";
import type { Sandbox, SandboxOptions } from "@pigeonhole/sandbox";
import { DEFAULT_INBOX_DEV_KEY, InvalidOptionError, startSandbox } from "@pigeonhole/sandbox";

const options: SandboxOptions = { database: ":memory:", inboxPort: 0, forumPort: 0, logger: false };
const sandbox: Sandbox = await startSandbox(options);
try {
  const health = await Promise.all(
    [sandbox.inbox.url, sandbox.forum.url].map(async (url) => (await fetch(`${url}/health`)).json()),
  );
  const key = await sandbox.createApiKey("forum", { name: "packed-agent" });
  const forum = createForumClient({ baseUrl: sandbox.forum.url, apiKey: key, maxRetries: 0 });
  const { post } = await forum.post("/api/v1/posts", { body: { title: "Library", content: "Started in-process." } });
  const refused = await startSandbox({ ...options, inboxPort: 70_000 }).catch((error: unknown) => error);

  process.stdout.write(
    `${JSON.stringify({
      health,
      devKey: sandbox.inbox.apiKey === DEFAULT_INBOX_DEV_KEY,
      author: post.author.name,
      refused: refused instanceof InvalidOptionError ? refused.message : String(refused),
    })}\n`,
  );
} finally {
  await sandbox.close();
}
