import type { PageErrors } from "@pigeonhole/browser-testing";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MovableClock } from "./movable-clock.ts";
import { type Stack, startStack } from "./stack.ts";

// One send a day, so the second send of this file meets the Inbox API's send limit.
const SENDS_PER_DAY = 1;

const DAY_MS = 86_400_000;
const MIDNIGHT_MARGIN_MS = 3 * 60_000;
/**
 * Now, or 3 minutes earlier in the last 3 minutes of a UTC day. The send limit asks to wait until midnight UTC, which
 * from this time on is always more than the minute a client sits out.
 */
function clearOfMidnight(now = Date.now()): number {
  return DAY_MS - (now % DAY_MS) < MIDNIGHT_MARGIN_MS ? now - MIDNIGHT_MARGIN_MS : now;
}

describe("errors, as the sample shows them", () => {
  let stack: Stack;
  let page: Page;
  const mail = () => page.getByRole("region", { name: "Mail" });
  const forum = () => page.getByRole("region", { name: "Forum" });

  beforeAll(async () => {
    stack = await startStack({
      limits: { inboxSendsPerDay: SENDS_PER_DAY },
      clock: new MovableClock(clearOfMidnight()),
    });
    for (const username of ["ada", "grace"]) {
      await stack.inbox.post("/v0/inboxes", { body: { username } });
    }
    ({ page } = await stack.openPage());
    await mail().getByRole("button", { name: "ada@pigeonhole.test" }).waitFor();
  });
  afterAll(() => stack?.close());

  it("says which key was refused while 'Use a wrong API key' is on, and recovers when it is off", async () => {
    await page.getByLabel("Use a wrong API key").check();
    const mailAlert = mail().getByRole("alert");
    const forumAlert = forum().getByRole("alert");
    await mailAlert.getByText("The API key was refused").waitFor();
    await mailAlert.getByText("PIGEONHOLE_INBOX_API_KEY").waitFor();
    await forumAlert.getByText("The API key was refused").waitFor();
    await forumAlert.getByText("PIGEONHOLE_FORUM_API_KEY").waitFor();
    expect(await mailAlert.textContent()).toContain("401");
    await stack.screenshot(page, "error-wrong-key");

    await page.getByLabel("Use a wrong API key").uncheck();
    await expect.poll(() => page.getByRole("alert").count()).toBe(0);
  });

  it("shows the field the Inbox API rejected", async () => {
    const form = mail().getByRole("form", { name: "Create inbox" });
    await form.getByLabel("Username").fill("Not Valid");
    await form.getByRole("button", { name: "Create inbox" }).click();
    const alert = mail().getByRole("alert");
    await alert.getByText("The API did not accept the input").waitFor();
    await alert.getByText("username", { exact: true }).waitFor();
    expect(await alert.textContent()).toContain("400");
    // The input is kept, to be corrected.
    expect(await form.getByLabel("Username").inputValue()).toBe("Not Valid");
    await stack.screenshot(page, "error-validation");
  });

  it("shows the Forum API's message for a blank title", async () => {
    const form = forum().getByRole("form", { name: "New post" });
    await form.getByLabel("Title").fill("   ");
    await form.getByLabel("Content").fill("A post without a title.");
    await form.getByRole("button", { name: "Post" }).click();
    const alert = forum().getByRole("alert");
    await alert.getByText("The API did not accept the input").waitFor();
    expect(await alert.textContent()).toMatch(/title/);
    expect(await alert.textContent()).toContain("VALIDATION_ERROR");
  });

  it("reports the daily send limit at once, with the wait the API asks for, and no retry", async () => {
    await mail().getByRole("button", { name: "ada@pigeonhole.test" }).click();
    const compose = mail().getByRole("form", { name: "Compose" });
    const send = async (subject: string) => {
      await compose.getByLabel("To").fill("grace@pigeonhole.test");
      await compose.getByLabel("Subject").fill(subject);
      await compose.getByLabel("Message").fill("Within the limit?");
      await compose.getByRole("button", { name: "Send" }).click();
    };
    await send("The day's only send");
    await compose.getByText("Sent to grace@pigeonhole.test.").waitFor();

    await send("One too many");
    const alert = compose.getByRole("alert");
    await alert.getByText("Rate limited").waitFor({ timeout: 10_000 });
    const text = await alert.textContent();
    expect(text).toContain("429 SEND_LIMIT_EXCEEDED");
    // The wait runs to midnight UTC, minutes or hours: longer than a client sits out, so it did not retry.
    expect(text).toMatch(/The client did not retry: the API asks to wait (\d+ h )?\d+ min\./);
    expect(text).not.toMatch(/retried/);
    const activity = page.getByRole("region", { name: "Client retries" });
    expect(await activity.getByRole("listitem").count()).toBe(0);
    await activity.getByText("none so far").waitFor();
    await stack.screenshot(page, "error-rate-limited");

    const { messages } = await stack.inbox.get("/v0/inboxes/{inbox_id}/messages", {
      params: { path: { inbox_id: "grace@pigeonhole.test" } },
    });
    expect(messages.map((message) => message.subject)).toEqual(["The day's only send"]);
  });
});

describe("a per-minute limit, which the client rides out", () => {
  // One forum write a minute, on a clock the test moves near the end of a minute: the write over the limit is asked
  // to wait a few seconds, which the client does before retrying.
  const clock = new MovableClock();
  let stack: Stack;
  let page: Page;
  let errors: PageErrors;
  let postId: string;

  const post = () =>
    page
      .getByRole("list", { name: "Posts" })
      .getByRole("listitem")
      .filter({ has: page.getByRole("heading", { name: "Worth a vote" }) });
  const score = () => post().getByTitle("upvotes − downvotes").textContent();

  beforeAll(async () => {
    stack = await startStack({ limits: { forumWritesPerMinute: 1 }, clock });
    const created = await stack.writer.post("/api/v1/posts", {
      body: { title: "Worth a vote", content: "Up first, then down." },
    });
    postId = created.post.id;
    ({ page, errors } = await stack.openPage());
    await post().waitFor();
  });
  afterAll(() => stack?.close());

  it("shows the retry of a vote over the limit while the client waits, then the vote", async () => {
    const activity = page.getByRole("region", { name: "Client retries" });
    const vote = `forum: POST /api/v1/posts/${postId}/vote`;

    // A minute no write has been counted in, 4 s before its end: the upvote is its one write.
    clock.moveToFreshWindowEnd(4_000);
    await page.getByRole("button", { name: "Upvote Worth a vote" }).click();
    await expect.poll(score).toBe("1");
    expect(await activity.getByRole("listitem").count()).toBe(0);

    // The downvote is one write too many: 429, asking to wait until the window ends.
    await page.getByRole("button", { name: "Downvote Worth a vote" }).click();
    const retry = activity.getByRole("listitem").filter({ hasText: `${vote} answered 429` });
    await retry.waitFor({ timeout: 5_000 });
    // Pushed as it happened: the client is still waiting, so the call has not gone through and the page still shows
    // the upvote.
    expect(await activity.getByText("went through").count()).toBe(0);
    expect(await score()).toBe("1");
    const waited = Number(/retrying in ([\d.]+) s$/.exec((await retry.textContent()) ?? "")?.[1]);
    expect(waited).toBeGreaterThan(0);
    expect(waited).toBeLessThanOrEqual(4);

    // The retry lands in the next window and goes through.
    await activity.getByText(`${vote} went through after 1 retry`).waitFor({ timeout: 10_000 });
    await expect.poll(score).toBe("-1");
    await post().getByText("▲ 0 ▼ 1").waitFor();
    expect(await page.getByRole("button", { name: "Downvote Worth a vote" }).getAttribute("aria-pressed")).toBe("true");
    expect(await activity.getByRole("listitem").allTextContents()).toEqual([
      `${vote} went through after 1 retry`,
      expect.stringContaining(`${vote} answered 429`),
    ]);
    expect(await page.getByRole("alert").count()).toBe(0);
    await stack.screenshot(page, "rate-limit-ridden-out");

    const { post: stored } = await stack.writer.get("/api/v1/posts/{post_id}", {
      params: { path: { post_id: postId } },
    });
    expect([stored.upvotes, stored.downvotes]).toEqual([0, 1]);
    expect(errors.list).toEqual([]);
  });
});
