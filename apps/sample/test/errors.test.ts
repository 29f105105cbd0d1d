import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Stack, startStack } from "./stack.ts";

// One send a day, so the second send of this file meets the Inbox API's send limit.
const SENDS_PER_DAY = 1;

describe("errors, as the sample shows them", () => {
  let stack: Stack;
  let page: Page;
  const mail = () => page.getByRole("region", { name: "Mail" });
  const forum = () => page.getByRole("region", { name: "Forum" });

  beforeAll(async () => {
    stack = await startStack({ inboxSendsPerDay: SENDS_PER_DAY });
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

  it("shows the client's retries and the outcome when the send limit is reached", async () => {
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
    await alert.getByText("Rate limited").waitFor({ timeout: 15_000 });
    const text = await alert.textContent();
    // The client retried twice (its default), backing off, since the wait the API asked for is too long.
    expect(text).toMatch(/The client retried 2 times \(429, waited [\d.]+ s; 429, waited [\d.]+ s\), then gave up\./);
    expect(text).toContain("SEND_LIMIT_EXCEEDED");
    expect(text).toMatch(/The API asks to wait \d+ (h|min)/);
    // The same retries were pushed to the page while they happened.
    const activity = page.getByRole("region", { name: "Client retries" });
    expect(await activity.getByRole("listitem").count()).toBe(2);
    expect(await activity.textContent()).toContain("inbox: POST /v0/inboxes/ada@pigeonhole.test/messages answered 429");
    await stack.screenshot(page, "error-rate-limited");

    const { messages } = await stack.inbox.get("/v0/inboxes/{inbox_id}/messages", {
      params: { path: { inbox_id: "grace@pigeonhole.test" } },
    });
    expect(messages.map((message) => message.subject)).toEqual(["The day's only send"]);
  });
});
