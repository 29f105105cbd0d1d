import { once } from "node:events";
import { createServer } from "node:net";
import { createInboxClient } from "@pigeonhole/inbox";
import { type Server, startServer } from "@pigeonhole/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { markPage, type Stack, startStack } from "./stack.ts";

/** A port on 127.0.0.1 that nothing listens on, for now. */
async function closedPort(): Promise<number> {
  const probe = createServer().listen(0, "127.0.0.1");
  await once(probe, "listening");
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (address === null || typeof address === "string") {
    throw new Error("no port");
  }
  return address.port;
}

describe("delivery status of mail to outside addresses, in Chromium", () => {
  let stack: Stack;
  let relayPort: number;
  /** The mail server of example.com: a second Pigeonhole server, once it starts. */
  let elsewhere: Server | undefined;

  beforeAll(async () => {
    relayPort = await closedPort();
    // The relay is down at first: the first attempt fails for now, the next one a few seconds later may succeed.
    stack = await startStack({ smtpRelay: `smtp://127.0.0.1:${relayPort}`, smtpRetryDelaysMs: [3_000, 3_000] });
    await stack.inbox.post("/v0/inboxes", { body: { username: "alice" } });
  });
  afterAll(async () => {
    await stack?.close();
    await elsewhere?.close();
  });

  it("shows a delayed recipient become delivered once the relay answers, without a reload", async () => {
    await stack.inbox.post("/v0/inboxes/{inbox_id}/messages", {
      params: { path: { inbox_id: "alice@pigeonhole.test" } },
      body: { to: "grace@example.com", subject: "Quarterly report", text: "Attached soon." },
    });
    const { page, errors } = await stack.openPage();
    await page.getByRole("list", { name: "Inboxes" }).getByRole("button", { name: "alice@pigeonhole.test" }).click();
    await page.getByRole("list", { name: "Threads" }).getByText("Quarterly report").click();
    const deliveries = page.getByRole("article", { name: "Thread" }).getByRole("list", { name: "Deliveries" });
    await deliveries.getByText("grace@example.com: delayed").waitFor({ timeout: 10_000 });
    const notReloaded = await markPage(page);

    // The relay comes up: a mail server for example.com that hosts grace.
    elsewhere = await startServer({
      inboxPort: 0,
      forumPort: 0,
      smtpPort: relayPort,
      domains: ["example.com"],
      database: ":memory:",
      logger: false,
    });
    const grace = createInboxClient({ baseUrl: elsewhere.inbox.url, apiKey: elsewhere.inbox.apiKey });
    await grace.post("/v0/inboxes", { body: { username: "grace" } });

    await deliveries.getByText("grace@example.com: delivered").waitFor({ timeout: 15_000 });
    expect(await notReloaded()).toBe(true);
    await stack.screenshot(page, "mail-delivered");
    expect(errors.list).toEqual([]);
  });
});
