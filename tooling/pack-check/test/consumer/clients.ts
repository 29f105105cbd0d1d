// An application of the installed client packages, run against a running server. It takes the services' addresses
// and keys from the PIGEONHOLE_* variables, as the clients do by default, receives a real webhook delivery on a local
// server, and prints what it saw as one JSON line. It runs as TypeScript on Node 24 and, compiled by tsc, on Node 20.
import type { IncomingHttpHeaders } from "node:http";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createTransport, PigeonholeError } from "@pigeonhole/client-core";
import type { Post } from "@pigeonhole/forum";
import { createForumClient, NotFoundError as ForumNotFoundError } from "@pigeonhole/forum";
import type { paths as ForumPaths } from "@pigeonhole/forum-types";
import type { Inbox, WebhookEvent } from "@pigeonhole/inbox";
import { createInboxClient, NotFoundError, verifyWebhook, WebhookVerificationError } from "@pigeonhole/inbox";
import type { ListMessagesResponse, Message } from "@pigeonhole/inbox-types";
import { createTestControl, WaitTimedOutError } from "@pigeonhole/test-control";
import type { WaitForMessageResponse } from "@pigeonhole/test-control-types";

interface Delivery {
  body: string;
  headers: IncomingHttpHeaders;
}

/** Inbox addresses are unique on a server: each run of this program names its inboxes after its own label. */
const label = process.env.PACK_CHECK_LABEL ?? "consumer";

/** A local server for webhook deliveries; `next()` resolves with the first one, or rejects after 10 s. */
async function startReceiver() {
  let deliver: (delivery: Delivery) => void = () => {};
  const first = new Promise<Delivery>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("No webhook delivery within 10 s.")), 10_000);
    deliver = (delivery) => {
      clearTimeout(timer);
      resolve(delivery);
    };
  });
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      response.writeHead(204).end();
      deliver({ body: Buffer.concat(chunks).toString("utf8"), headers: request.headers });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/pigeonhole`,
    next: () => first,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const inbox = createInboxClient({ maxRetries: 0 });
const receiver = await startReceiver();

const sender: Inbox = await inbox.post("/v0/inboxes", { body: { username: `${label}-sender` } });
const recipient: Inbox = await inbox.post("/v0/inboxes", { body: { username: `${label}-recipient` } });
const hook = await inbox.post("/v0/webhooks", {
  body: { url: receiver.url, event_types: ["message.received"], inbox_ids: [recipient.inbox_id] },
});

const sent = await inbox.post("/v0/inboxes/{inbox_id}/messages", {
  params: { path: { inbox_id: sender.inbox_id } },
  body: { to: recipient.inbox_id, subject: `Packed ${label}`, text: "Installed from tarballs." },
});
const received: ListMessagesResponse = await inbox.get("/v0/inboxes/{inbox_id}/messages", {
  params: { path: { inbox_id: recipient.inbox_id } },
});
const message: Message = await inbox.get("/v0/inboxes/{inbox_id}/messages/{message_id}", {
  params: { path: { inbox_id: recipient.inbox_id, message_id: sent.message_id } },
});
// The server's test control (on: the server runs in memory) finds the message without polling, and gives up on one
// that never comes.
const testControl = createTestControl({ maxRetries: 0 });
const waited: WaitForMessageResponse = await testControl.waitForMessage({
  inbox_id: recipient.inbox_id,
  subject: `Packed ${label}`,
  timeout_ms: 5_000,
});
const neverSent = await testControl
  .waitForMessage({ subject: `${label} never sent`, timeout_ms: 0 })
  .catch((error: unknown) => error);
const listedInboxes: string[] = [];
for await (const item of inbox.paginate("/v0/inboxes", { params: { query: { limit: 1 } } })) {
  listedInboxes.push(item.inbox_id);
}
const missing = await inbox
  .get("/v0/inboxes/{inbox_id}", { params: { path: { inbox_id: `${label}-nobody@pigeonhole.test` } } })
  .catch((error: unknown) => error);

const delivery = await receiver.next();
await receiver.close();
const event: WebhookEvent = await verifyWebhook(delivery.body, delivery.headers, hook.secret);
const tampered = await verifyWebhook(delivery.body.replace("Installed", "Forged"), delivery.headers, hook.secret).catch(
  (error: unknown) => error,
);
await inbox.delete("/v0/webhooks/{webhook_id}", { params: { path: { webhook_id: hook.webhook_id } } });

const forum = createForumClient({ maxRetries: 0 });
const { post } = await forum.post("/api/v1/posts", { body: { title: `Packed ${label}`, content: "From a tarball." } });
const newest: Post[] = (await forum.get("/api/v1/posts", { params: { query: { sort: "new" } } })).posts;
// One forum of many agents: another agent registers (no key needed) and votes on the post.
const { api_key: voterKey } = await forum.post("/api/v1/agents/register", { body: { name: `${label}-voter` } });
const vote = await createForumClient({ apiKey: voterKey, maxRetries: 0 }).post("/api/v1/posts/{post_id}/vote", {
  params: { path: { post_id: post.id } },
  body: { direction: "up" },
});
const missingPost = await forum
  .get("/api/v1/posts/{post_id}", { params: { path: { post_id: "7c9e6679-7425-40de-944b-e07fc1f90ae7" } } })
  .catch((error: unknown) => error);

// The shared runtime on its own: a path typed by the forum's generated types, through the bare transport.
const postsPath: keyof ForumPaths = "/api/v1/posts";
const raw = await createTransport({ maxRetries: 0 })(
  new Request(`${process.env.PIGEONHOLE_FORUM_BASE_URL}${postsPath}`, {
    headers: { authorization: `Bearer ${process.env.PIGEONHOLE_FORUM_API_KEY}` },
  }),
);

process.stdout.write(
  `${JSON.stringify({
    node: process.version,
    inbox: {
      sender: sender.inbox_id,
      received: received.messages.map((item) => item.subject),
      read: { from: message.from, text: message.text },
      paginatedIncludesBoth: [sender.inbox_id, recipient.inbox_id].every((id) => listedInboxes.includes(id)),
      notFound: {
        isNotFoundError: missing instanceof NotFoundError,
        isPigeonholeError: missing instanceof PigeonholeError,
        status: missing instanceof NotFoundError ? missing.status : null,
        code: missing instanceof NotFoundError ? missing.code : null,
      },
    },
    webhook: {
      eventType: event.event_type,
      messageId: event.event_type === "message.received" ? event.message.message_id === sent.message_id : null,
      tamperedRejected: tampered instanceof WebhookVerificationError ? tampered.reason : null,
    },
    forum: {
      title: post.title,
      newestFirst: newest[0]?.id === post.id,
      vote: { action: vote.action, upvotes: vote.upvotes },
      notFound: missingPost instanceof ForumNotFoundError ? missingPost.code : null,
      transportStatus: raw.status,
    },
    testControl: {
      waitedForSent: waited.message.message_id === sent.message_id,
      timedOut: neverSent instanceof WaitTimedOutError ? neverSent.code : null,
    },
  })}\n`,
);
