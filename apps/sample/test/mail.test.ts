import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { markPage, type Stack, startStack } from "./stack.ts";

const run = promisify(execFile);

async function createInbox(page: Page, username: string, displayName: string) {
  const form = page.getByRole("form", { name: "Create inbox" });
  await form.getByLabel("Username").fill(username);
  await form.getByLabel("Display name").fill(displayName);
  await form.getByRole("button", { name: "Create inbox" }).click();
  await page.getByRole("list", { name: "Inboxes" }).getByText(`${username}@pigeonhole.test`).waitFor();
}

const openInbox = (page: Page, address: string) =>
  page.getByRole("list", { name: "Inboxes" }).getByRole("button", { name: address }).click();

describe("the Mail pane, in Chromium", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack?.close());

  it("shows mail arriving in another tab without a reload, attachment and replies included", async () => {
    const { page: alice, errors: aliceErrors } = await stack.openPage();
    await createInbox(alice, "alice", "Alice");
    await createInbox(alice, "bob", "Bob");

    // Bob reads his inbox in a second tab, which only the server's events can update.
    const { page: bob, errors: bobErrors } = await stack.openPage();
    await openInbox(bob, "bob@pigeonhole.test");
    const bobNotReloaded = await markPage(bob);
    const aliceNotReloaded = await markPage(alice);

    await openInbox(alice, "alice@pigeonhole.test");
    const compose = alice.getByRole("form", { name: "Compose" });
    await compose.getByLabel("To").fill("bob@pigeonhole.test");
    await compose.getByLabel("Subject").fill("Lunch on Friday?");
    await compose.getByLabel("Message").fill("The menu is attached.");
    const menu = Buffer.from("Soup\nBread\nPie\n");
    await compose.getByLabel("Attachments").setInputFiles({ name: "menu.txt", mimeType: "text/plain", buffer: menu });
    await compose.getByRole("button", { name: "Send" }).click();
    await compose.getByText("Sent to bob@pigeonhole.test.").waitFor();

    const bobThreads = bob.getByRole("list", { name: "Threads" });
    await bobThreads.getByText("Lunch on Friday?").waitFor({ timeout: 10_000 });
    await bobThreads.getByText("Lunch on Friday?").click();
    const bobThread = bob.getByRole("article", { name: "Thread" });
    await bobThread.getByText("The menu is attached.").waitFor();
    // The attachment went through the API base64-encoded and arrived whole.
    await bobThread.getByText(`(${menu.length} bytes)`).waitFor();
    await bobThread.getByText("menu.txt").waitFor();
    await stack.screenshot(bob, "mail-arrived");

    // Alice opens her sent copy; Bob's reply must join it without her reloading.
    await alice.getByRole("list", { name: "Threads" }).getByText("Lunch on Friday?").click();
    const aliceThread = alice.getByRole("article", { name: "Thread" });
    await aliceThread.getByText("The menu is attached.").waitFor();
    await bobThread.getByLabel("Reply text").fill("Friday works. Pie!");
    await bobThread.getByRole("button", { name: "Reply" }).click();
    await aliceThread.getByText("Friday works. Pie!").waitFor({ timeout: 10_000 });
    expect(
      await aliceThread
        .getByRole("listitem")
        .filter({ hasText: /Bob|Alice/ })
        .count(),
    ).toBe(2);
    await alice
      .getByRole("list", { name: "Threads" })
      .getByText(/2 messages/)
      .waitFor();
    await stack.screenshot(alice, "mail-thread-grew");

    expect(await bobNotReloaded()).toBe(true);
    expect(await aliceNotReloaded()).toBe(true);
    expect(aliceErrors.list).toEqual([]);
    expect(bobErrors.list).toEqual([]);
  });

  it("shows mail from outside, sent in over SMTP with swaks, as it arrives", async () => {
    const { page, errors } = await stack.openPage();
    await openInbox(page, "bob@pigeonhole.test");
    const notReloaded = await markPage(page);

    // Debian's swaks, speaking SMTP to the Pigeonhole server as any mail server on the internet would.
    const { stdout } = await run(
      "swaks",
      [
        ["--server", `${stack.smtp.host}:${stack.smtp.port}`],
        ["--from", "grace@example.com", "--to", "bob@pigeonhole.test"],
        ["--header", "Subject: Stamps for the newsletter", "--body", "Two hundred, please."],
      ].flat(),
      { timeout: 20_000 },
    );
    expect(stdout).toMatch(/^ -> \.\r?\n<- {2}250 /m);

    const threads = page.getByRole("list", { name: "Threads" });
    await threads.getByText("Stamps for the newsletter").waitFor({ timeout: 10_000 });
    await threads.getByText("Stamps for the newsletter").click();
    const thread = page.getByRole("article", { name: "Thread" });
    await thread.getByText("Two hundred, please.").waitFor();
    await thread.getByText("grace@example.com").waitFor();
    // A received copy has no deliveries to show.
    expect(await thread.getByRole("list", { name: "Deliveries" }).count()).toBe(0);
    await stack.screenshot(page, "mail-from-outside");
    expect(await notReloaded()).toBe(true);
    expect(errors.list).toEqual([]);
  });

  it("shows where each recipient of a sent message stands: local for an inbox, captured outside", async () => {
    const { page, errors } = await stack.openPage();
    await stack.inbox.post("/v0/inboxes/{inbox_id}/messages", {
      params: { path: { inbox_id: "alice@pigeonhole.test" } },
      body: { to: ["bob@pigeonhole.test", "carol@example.com"], subject: "Minutes", text: "Attached soon." },
    });
    await openInbox(page, "alice@pigeonhole.test");
    await page.getByRole("list", { name: "Threads" }).getByText("Minutes").click();
    const deliveries = page.getByRole("article", { name: "Thread" }).getByRole("list", { name: "Deliveries" });
    await deliveries.waitFor({ timeout: 10_000 });
    expect(await deliveries.getByRole("listitem").allTextContents()).toEqual([
      "bob@pigeonhole.test: local",
      "carol@example.com: captured",
    ]);
    expect(errors.list).toEqual([]);
  });

  it("marks mail that arrives in an inbox you are not reading", async () => {
    const { page } = await stack.openPage();
    await openInbox(page, "alice@pigeonhole.test");
    await stack.inbox.post("/v0/inboxes/{inbox_id}/messages", {
      params: { path: { inbox_id: "alice@pigeonhole.test" } },
      body: { to: "bob@pigeonhole.test", subject: "Dessert", text: "Pie or cake?" },
    });
    const bobButton = page.getByRole("list", { name: "Inboxes" }).getByRole("button", { name: "bob@pigeonhole.test" });
    await bobButton.getByText("1 new").waitFor({ timeout: 10_000 });
    await bobButton.click();
    await page.getByRole("list", { name: "Threads" }).getByText("Dessert").waitFor();
    expect(await bobButton.getByText("1 new").count()).toBe(0);
  });
});
