import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { type AddressInfo, createServer as createTcpServer } from "node:net";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { createInboxClient, type InboxClient } from "@pigeonhole/inbox";
import { type Server, startServer } from "@pigeonhole/server";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { SITE_ROOT } from "./built-site.ts";
import { type Cleanups, receiveWithExamples } from "./example-receivers.ts";

/** Polls `check` until it holds, for at most `ms`: the relay and the events are asynchronous. */
async function eventually(check: () => boolean, what: string, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}`);
    }
    await sleep(50);
  }
}

/**
 * The guide's delivery examples against real SMTP: the server under test relays mail for `example.com` to a second
 * Pigeonhole server that hosts that domain, which accepts mail for its inboxes and refuses other addresses with
 * 550 5.1.1, as any receiving mail server does. So grace@example.com is delivered and nobody@example.com bounces.
 */
describe("the real e-mail guide's delivery examples, through a relay", () => {
  let receiving: Server;
  let server: Server;
  let inbox: InboxClient;
  let elsewhere: InboxClient;
  const cleanups: Cleanups = [];

  beforeAll(async () => {
    receiving = await startServer({
      inboxPort: 0,
      forumPort: 0,
      smtpPort: 0,
      domains: ["example.com"],
      database: ":memory:",
      logger: false,
    });
    elsewhere = createInboxClient({ baseUrl: receiving.inbox.url, apiKey: receiving.inbox.apiKey, maxRetries: 0 });
    await elsewhere.post("/v0/inboxes", { body: { username: "grace" } });
    server = await startServer({
      inboxPort: 0,
      forumPort: 0,
      database: ":memory:",
      smtpRelay: receiving.smtp?.url,
      allowPrivateWebhooks: true,
      logger: false,
    });
    inbox = createInboxClient({ baseUrl: server.inbox.url, apiKey: server.inbox.apiKey, maxRetries: 0 });
    await inbox.post("/v0/inboxes", { body: { username: "support", client_id: "support-inbox-v1" } });
  });

  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) {
      await cleanup();
    }
  });

  afterAll(async () => {
    await server?.close();
    await receiving?.close();
  });

  /** Support writes to `to`. */
  const send = (to: string, subject: string) =>
    inbox.post("/v0/inboxes/{inbox_id}/messages", {
      params: { path: { inbox_id: "support@pigeonhole.test" } },
      body: { to, subject, text: "Hello" },
    });

  it("a message to the other server arrives there, and its delivery ends delivered with the relay's 250", async () => {
    const sent = await send("grace@example.com", "Your order 1043");
    const deliveries = async () =>
      (
        await inbox.get("/v0/inboxes/{inbox_id}/messages/{message_id}", {
          params: { path: { inbox_id: "support@pigeonhole.test", message_id: sent.message_id } },
        })
      ).deliveries;
    const first = await deliveries();
    expect(first.map(({ address, status }) => `${address} ${status}`)).toEqual([
      expect.stringMatching(/^grace@example\.com (queued|delivered)$/),
    ]);
    let last = first;
    for (let attempt = 0; last[0]?.status !== "delivered"; attempt++) {
      if (attempt === 200) {
        throw new Error(`never delivered: ${JSON.stringify(last)}`);
      }
      await sleep(100);
      last = await deliveries();
    }
    expect(last[0]).toMatchObject({ address: "grace@example.com", status: "delivered", attempts: 1 });
    expect(last[0]?.smtp_reply).toMatch(/^250 /);
    const { messages } = await elsewhere.get("/v0/inboxes/{inbox_id}/messages", {
      params: { path: { inbox_id: "grace@example.com" } },
    });
    expect(messages.map((message) => [message.subject, message.message_id])).toEqual([
      ["Your order 1043", sent.message_id],
    ]);
  });

  it("outcomes.ts prints what the relay answered: delivered for an inbox there, bounced for an unknown address", async () => {
    const child: ChildProcess = spawn(process.execPath, [join(SITE_ROOT, "examples/guides/email-outcomes.ts")], {
      env: {
        ...process.env,
        PIGEONHOLE_INBOX_BASE_URL: server.inbox.url,
        PIGEONHOLE_INBOX_API_KEY: server.inbox.apiKey,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    cleanups.push(async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGKILL");
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

    // The example subscribes a moment after it starts: write until it hears a delivery, then one bounce.
    for (let attempt = 0; !output.includes("delivered to grace@example.com"); attempt++) {
      if (attempt === 50) {
        throw new Error(`the example heard no delivery: ${output}`);
      }
      await send("grace@example.com", "Are you there?");
      await sleep(300);
    }
    await send("nobody@example.com", "Hello?");
    await eventually(() => output.includes("bounced for nobody@example.com"), "the bounce");

    child.kill("SIGINT");
    await once(child, "exit", { signal: AbortSignal.timeout(10_000) });
    const lines = output.split("\n").filter((line) => line !== "");
    expect(lines.at(-1)).toBe("stopped listening");
    expect(lines).toContain("delivered to grace@example.com");
    expect(lines.find((line) => line.startsWith("bounced for nobody@example.com"))).toMatch(
      /^bounced for nobody@example\.com: 550 5\.1\.1 /,
    );
    expect(lines.filter((line) => line.startsWith("delayed"))).toEqual([]);
  });

  it("the reference's webhook receivers handle real message.delivered and message.bounced deliveries", async () => {
    const { logs, statuses } = await receiveWithExamples(
      inbox,
      ["message.delivered", "message.bounced"],
      ["onMessageDelivered", "onMessageBounced"],
      cleanups,
    );

    const toGrace = await send("grace@example.com", "Invoice");
    const toNobody = await send("nobody@example.com", "Invoice");
    await eventually(
      () =>
        logs.some((line) => line.startsWith(`${toGrace.message_id} delivered to`)) &&
        logs.some((line) => line.startsWith(`${toNobody.message_id} bounced`)),
      "both webhook deliveries",
    );
    expect(logs).toContain(`${toGrace.message_id} delivered to grace@example.com`);
    expect(logs.find((line) => line.startsWith(`${toNobody.message_id} bounced`))).toMatch(
      /bounced \(Permanent\) for nobody@example\.com: 550 5\.1\.1 /,
    );
    expect(statuses.every((status) => status === 204)).toBe(true);
  });

  it("the reference's message.delayed receiver handles a real delivery when the relay cannot be reached", async () => {
    // A port nothing listens on: every attempt fails for now, with no connection.
    const closed = createTcpServer().listen(0, "127.0.0.1");
    await once(closed, "listening");
    const { port: closedPort } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const unreachable = await startServer({
      inboxPort: 0,
      forumPort: 0,
      database: ":memory:",
      smtpRelay: `smtp://127.0.0.1:${closedPort}`,
      smtpRetryDelaysMs: [3_600_000],
      allowPrivateWebhooks: true,
      logger: false,
    });
    cleanups.push(() => unreachable.close());
    const client = createInboxClient({ baseUrl: unreachable.inbox.url, apiKey: unreachable.inbox.apiKey });
    await client.post("/v0/inboxes", { body: { username: "support" } });

    const { logs } = await receiveWithExamples(client, ["message.delayed"], ["onMessageDelayed"], cleanups);

    const sent = await client.post("/v0/inboxes/{inbox_id}/messages", {
      params: { path: { inbox_id: "support@pigeonhole.test" } },
      body: { to: "grace@example.com", subject: "Later", text: "Hello" },
    });
    await eventually(
      () => logs.some((line) => line.startsWith(`${sent.message_id} to grace@example.com`)),
      "the delay",
    );
    const line = logs.find((entry) => entry.startsWith(sent.message_id)) ?? "";
    const nextTry = /next try at (\S+)$/.exec(line)?.[1] ?? "";
    expect(line).toMatch(/ to grace@example\.com delayed \(.+\), next try at /);
    expect(Date.parse(nextTry) - Date.now()).toBeGreaterThan(3_000_000);
    const message = await client.get("/v0/inboxes/{inbox_id}/messages/{message_id}", {
      params: { path: { inbox_id: "support@pigeonhole.test", message_id: sent.message_id } },
    });
    expect(message.deliveries).toEqual([
      expect.objectContaining({ address: "grace@example.com", status: "delayed", attempts: 1 }),
    ]);
  });
});
