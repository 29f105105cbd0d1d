import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { join } from "node:path";
import { createInboxClient, type InboxClient } from "@pigeonhole/inbox";
import { type Server, startServer } from "@pigeonhole/server";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { SITE_ROOT } from "./built-site.ts";
import { type Cleanups, receiveWithExamples } from "./example-receivers.ts";

/** Polls `check` until it holds, for at most `ms`: deliveries are asynchronous. */
async function eventually(check: () => boolean, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) {
      throw new Error("timed out waiting for a webhook delivery");
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Sends one message between two fresh inboxes: a `message.sent` for one, a `message.received` for the other. */
async function sendBetweenInboxes(inbox: InboxClient, subject: string): Promise<void> {
  const from = await inbox.post("/v0/inboxes", {});
  const to = await inbox.post("/v0/inboxes", {});
  await inbox.post("/v0/inboxes/{inbox_id}/messages", {
    params: { path: { inbox_id: from.inbox_id } },
    body: { to: to.inbox_id, subject },
  });
}

describe("the webhook examples, receiving real deliveries from the server", () => {
  let server: Server;
  let inbox: InboxClient;
  const cleanups: Cleanups = [];

  beforeAll(async () => {
    server = await startServer({
      inboxPort: 0,
      forumPort: 0,
      database: ":memory:",
      allowPrivateWebhooks: true,
      logger: false,
    });
    inbox = createInboxClient({ baseUrl: server.inbox.url, apiKey: server.inbox.apiKey, maxRetries: 0 });
  });

  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) {
      await cleanup();
    }
  });

  afterAll(async () => {
    await server?.close();
  });

  it("verifies and handles message.received and message.sent with the reference's fetch handlers", async () => {
    const { handlers, logs, statuses } = await receiveWithExamples(
      inbox,
      ["message.received", "message.sent"],
      ["onMessageReceived", "onMessageSent"],
      cleanups,
    );
    const [received] = handlers;
    await sendBetweenInboxes(inbox, "Hello, handlers");

    await eventually(
      () => logs.some((line) => line.includes(" sent ")) && logs.some((line) => line.includes(" wrote to ")),
    );
    expect(logs.find((line) => line.includes(" wrote to "))).toMatch(/wrote to .+@pigeonhole\.test: Hello, handlers/);
    expect(statuses.every((status) => status === 204)).toBe(true);

    // A forged delivery is refused.
    const forged = await received?.(
      new Request("http://127.0.0.1/hooks", {
        method: "POST",
        headers: {
          "webhook-id": "msg_1",
          "webhook-timestamp": String(Math.floor(Date.now() / 1000)),
          "webhook-signature": "v1,AAAA",
        },
        body: "{}",
      }),
    );
    expect(forged?.status).toBe(400);
  });

  it("runs the webhooks guide's server, which prints each verified event", async () => {
    const webhook = await inbox.post("/v0/webhooks", {
      body: { url: "http://127.0.0.1:9/unused", event_types: ["message.received"] },
    });
    cleanups.push(() =>
      inbox.delete("/v0/webhooks/{webhook_id}", { params: { path: { webhook_id: webhook.webhook_id } } }),
    );

    const child: ChildProcess = spawn(process.execPath, [join(SITE_ROOT, "examples/guides/webhook-server.ts")], {
      env: { ...process.env, PORT: "0", PIGEONHOLE_WEBHOOK_SECRET: webhook.secret },
      stdio: ["ignore", "pipe", "pipe"],
    });
    cleanups.push(async () => {
      if (child.exitCode === null) {
        child.kill("SIGTERM");
        await once(child, "exit");
      }
    });
    let output = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    await eventually(() => /listening on (\S+)/.test(output), 10_000);
    const url = /listening on (\S+)/.exec(output)?.[1] ?? "";

    await inbox.put("/v0/webhooks/{webhook_id}", {
      params: { path: { webhook_id: webhook.webhook_id } },
      body: { url, event_types: ["message.received"] },
    });
    await sendBetweenInboxes(inbox, "Hello, server");

    await eventually(() => output.includes("new mail for"));
    expect(output).toMatch(/new mail for .+@pigeonhole\.test from .+: Hello, server/);
  });
});
