import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { measureWidth } from "./fits-width.ts";
import { PHONE, type Stack, startStack } from "./stack.ts";

// Long words are what push a narrow page sideways: an address, a link, a request id in an error box.
const LONG_LINK = "https://pigeonhole.test/guides/receiving-mail-with-signed-webhooks-and-replaying-missed-deliveries";

describe("the sample on a phone, 390 px wide", () => {
  let stack: Stack;
  let page: Page;
  const mail = () => page.getByRole("region", { name: "Mail" });
  const forum = () => page.getByRole("region", { name: "Forum" });

  /** Nothing scrolls sideways and nothing sticks out of the screen, even cut off. */
  async function expectFitsPhone() {
    const { viewport, scrollWidth, overflows } = await measureWidth(page);
    expect(viewport).toBe(390);
    expect(overflows).toEqual([]);
    expect(scrollWidth).toBeLessThanOrEqual(390);
  }

  beforeAll(async () => {
    stack = await startStack();
    await stack.inbox.post("/v0/inboxes", {
      body: { username: "margaret.hamilton", display_name: "Margaret Hamilton" },
    });
    await stack.inbox.post("/v0/inboxes", { body: { username: "grace" } });
    await stack.inbox.post("/v0/inboxes/{inbox_id}/messages", {
      params: { path: { inbox_id: "grace@pigeonhole.test" } },
      body: { to: "margaret.hamilton@pigeonhole.test", subject: "The guide", text: `Have you read ${LONG_LINK}?` },
    });
    for (let n = 1; n <= 6; n++) {
      await stack.writer.post("/api/v1/posts", { body: { title: `Post ${n}`, content: `Number ${n} of six.` } });
    }
    await stack.writer.post("/api/v1/posts", {
      body: { title: "Replaying missed webhook deliveries after an outage", content: `Read ${LONG_LINK} first.` },
    });
    ({ page } = await stack.openPage(PHONE));
    // Under the test's own timeout, so a missing element is named rather than the test timing out.
    page.setDefaultTimeout(10_000);
    await mail().getByRole("button", { name: "margaret.hamilton@pigeonhole.test" }).waitFor();
    await forum().getByRole("heading", { name: "Post 6" }).waitFor();
  });
  afterAll(() => stack?.close());

  it("stacks the panes and fits the screen's width", async () => {
    await expectFitsPhone();
    const mailBox = await mail().boundingBox();
    const forumBox = await forum().boundingBox();
    // One above the other, each as wide as the screen allows.
    expect(forumBox?.y).toBeGreaterThanOrEqual((mailBox?.y ?? 0) + (mailBox?.height ?? 0));
    expect(mailBox?.width).toBeGreaterThan(300);
    expect(forumBox?.width).toBeGreaterThan(300);
    await stack.screenshot(page, "phone");
  });

  it("keeps every control on screen and usable, errors included", async () => {
    await page.getByLabel("Use a wrong API key").click();
    await mail().getByRole("alert").getByText("PIGEONHOLE_INBOX_API_KEY").waitFor();
    await forum().getByRole("alert").getByText("PIGEONHOLE_FORUM_API_KEY").waitFor();
    await expectFitsPhone();
    await stack.screenshot(page, "phone-wrong-key");
    await page.getByLabel("Use a wrong API key").click();
    await expect.poll(() => page.getByRole("alert").count()).toBe(0);

    const create = mail().getByRole("form", { name: "Create inbox" });
    await create.getByLabel("Username").fill("katherine.johnson");
    await create.getByLabel("Display name").fill("Katherine Johnson");
    await create.getByRole("button", { name: "Create inbox" }).click();
    await mail().getByText("No mail yet.").waitFor();

    const compose = mail().getByRole("form", { name: "Compose" });
    await compose.getByLabel("To").fill("margaret.hamilton@pigeonhole.test");
    await compose.getByLabel("Subject").fill("Trajectories");
    await compose.getByLabel("Message").fill("The numbers check out.");
    await compose.getByLabel("Attachments").setInputFiles({
      name: "trajectory-tables-for-the-whole-mission.csv",
      mimeType: "text/csv",
      buffer: Buffer.from("t,x,y\n0,0,0\n"),
    });
    await compose.getByRole("button", { name: "Send" }).click();
    await compose.getByText("Sent to margaret.hamilton@pigeonhole.test.").waitFor();

    await mail().getByRole("button", { name: "margaret.hamilton@pigeonhole.test" }).click();
    await mail().getByRole("list", { name: "Threads" }).getByText("The guide").click();
    const thread = mail().getByRole("article", { name: "Thread" });
    await thread.getByText(LONG_LINK, { exact: false }).waitFor();
    await thread.getByLabel("Reply text").fill("Not yet, tonight.");
    await thread.getByRole("button", { name: "Reply" }).click();
    await thread.getByText("Not yet, tonight.").waitFor();
    await expectFitsPhone();

    const newPost = forum().getByRole("form", { name: "New post" });
    await newPost.getByLabel("Title").fill("Written on a phone");
    await newPost.getByLabel("Content").fill("Every button within reach.");
    await newPost.getByRole("button", { name: "Post" }).click();
    await forum().getByRole("heading", { name: "Written on a phone" }).waitFor();
    // Its author cannot vote on it: another of the sample's agents does.
    const agents = forum().getByRole("group", { name: "Acting as" }).getByRole("button");
    await agents.nth(1).click();
    await expect.poll(() => agents.nth(1).getAttribute("aria-pressed")).toBe("true");
    await forum().getByRole("button", { name: "Upvote Written on a phone" }).click();
    await forum()
      .getByRole("list", { name: "Posts" })
      .getByRole("listitem")
      .filter({ hasText: "Written on a phone" })
      .getByText("▲ 1 ▼ 0")
      .waitFor();
    const longPost = forum()
      .getByRole("list", { name: "Posts" })
      .getByRole("listitem")
      .filter({ hasText: "Replaying missed webhook deliveries" });
    await longPost.getByRole("button", { name: "0 comments" }).click();
    await longPost.getByLabel("Comment text").fill("Bookmarked.");
    await longPost.getByRole("button", { name: "Comment", exact: true }).click();
    await longPost.getByRole("list", { name: "Comments" }).getByText("Bookmarked.").waitFor();
    await expectFitsPhone();
    await stack.screenshot(page, "phone-in-use");

    await forum().getByRole("button", { name: "new", exact: true }).click();
    await forum().getByRole("button", { name: "Next →" }).click();
    await forum().getByRole("heading", { name: "Post 1" }).waitFor();
    await forum().getByRole("button", { name: "← Previous" }).click();
    await forum().getByRole("heading", { name: "Written on a phone" }).waitFor();
    await expectFitsPhone();
  });
});
