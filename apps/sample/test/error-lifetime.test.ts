import type { PageErrors } from "@pigeonhole/browser-testing";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Stack, startStack } from "./stack.ts";

// An error box says what is wrong now: it goes once something succeeds, and a list that could not be loaded is not
// shown from an older answer underneath it.

/** A stack with two inboxes, a thread between them and a post with the given comments, and the page open on it. */
async function openSeededPage({ comments = [] }: { comments?: string[] } = {}) {
  const stack = await startStack();
  for (const username of ["ada", "grace"]) {
    await stack.inbox.post("/v0/inboxes", { body: { username } });
  }
  await stack.inbox.post("/v0/inboxes/{inbox_id}/messages", {
    params: { path: { inbox_id: "ada@pigeonhole.test" } },
    body: { to: "grace@pigeonhole.test", subject: "Notes", text: "The first draft." },
  });
  const { post } = await stack.writer.post("/api/v1/posts", {
    body: { title: "Open for comments", content: "Say something." },
  });
  for (const content of comments) {
    await stack.writer.post("/api/v1/posts/{post_id}/comments", {
      params: { path: { post_id: post.id } },
      body: { content },
    });
  }
  const { page, errors } = await stack.openPage();
  // Under the test's own timeout, so a missing element is named rather than the test timing out.
  page.setDefaultTimeout(10_000);
  const view = pageView(page);
  await view.mail().getByRole("button", { name: "ada@pigeonhole.test" }).waitFor();
  await view.post().waitFor();
  return { stack, page, errors, view };
}

/** The parts of the page the tests use. */
function pageView(page: Page) {
  const forum = () => page.getByRole("region", { name: "Forum" });
  return {
    mail: () => page.getByRole("region", { name: "Mail" }),
    forum,
    wrongKey: () => page.getByLabel("Use a wrong API key"),
    post: () =>
      forum()
        .getByRole("list", { name: "Posts" })
        .getByRole("listitem")
        .filter({ has: page.getByRole("heading", { name: "Open for comments" }) }),
  };
}

describe("an error box, for as long as it is news", () => {
  let stack: Stack;
  let page: Page;
  let view: ReturnType<typeof pageView>;
  const mail = () => view.mail();
  const forum = () => view.forum();
  const wrongKey = () => view.wrongKey();
  const post = () => view.post();

  beforeAll(async () => {
    ({ stack, page, view } = await openSeededPage());
  });
  afterAll(() => stack?.close());

  it("goes once the next action succeeds, wherever that action is", async () => {
    const create = mail().getByRole("form", { name: "Create inbox" });
    await create.getByLabel("Username").fill("Not Valid");
    await create.getByRole("button", { name: "Create inbox" }).click();
    await mail().getByRole("alert").getByText("The API did not accept the input").waitFor();

    // A send that goes through: the refused username is history.
    await mail().getByRole("button", { name: "ada@pigeonhole.test" }).click();
    const compose = mail().getByRole("form", { name: "Compose" });
    const send = async (to: string, subject: string) => {
      await compose.getByLabel("To").fill(to);
      await compose.getByLabel("Subject").fill(subject);
      await compose.getByLabel("Message").fill("Checking in.");
      await compose.getByRole("button", { name: "Send" }).click();
    };
    await send("grace@pigeonhole.test", "First try");
    await compose.getByText("Sent to grace@pigeonhole.test.").waitFor();
    expect(await mail().getByRole("alert").count()).toBe(0);

    // A send the API refuses, then one it takes.
    await send("nobody at all", "Second try");
    await compose.getByRole("alert").getByText("The API did not accept the input").waitFor();
    await send("grace@pigeonhole.test", "Third try");
    await compose.getByText("Sent to grace@pigeonhole.test.").waitFor();
    expect(await mail().getByRole("alert").count()).toBe(0);

    // In the Forum pane, a post without a title, then a comment that goes through.
    const newPost = forum().getByRole("form", { name: "New post" });
    await newPost.getByLabel("Title").fill("   ");
    await newPost.getByLabel("Content").fill("No title.");
    await newPost.getByRole("button", { name: "Post" }).click();
    await forum().getByRole("alert").getByText("The API did not accept the input").waitFor();
    await post().getByRole("button", { name: "0 comments" }).click();
    await post().getByLabel("Comment text").fill("A first comment.");
    await post().getByRole("button", { name: "Comment", exact: true }).click();
    await post().getByRole("list", { name: "Comments" }).getByText("A first comment.").waitFor();
    expect(await page.getByRole("alert").count()).toBe(0);
    // The refused title is kept, to be corrected.
    expect(await newPost.getByLabel("Title").inputValue()).toBe("   ");
  });

  it("goes when the API key is changed back, the refused action's included", async () => {
    await wrongKey().check();
    const newPost = forum().getByRole("form", { name: "New post" });
    await newPost.getByLabel("Title").fill("Posted with the wrong key");
    await newPost.getByLabel("Content").fill("Refused.");
    await newPost.getByRole("button", { name: "Post" }).click();
    await expect.poll(() => forum().getByRole("alert").filter({ hasText: "The API key was refused" }).count()).toBe(2);

    await wrongKey().uncheck();
    await post().waitFor();
    await expect.poll(() => page.getByRole("alert").count()).toBe(0);
  });
});

describe("after a refused key", () => {
  let stack: Stack;
  let page: Page;
  let errors: PageErrors;
  let view: ReturnType<typeof pageView>;
  const mail = () => view.mail();
  const forum = () => view.forum();
  const wrongKey = () => view.wrongKey();
  const post = () => view.post();

  beforeAll(async () => {
    ({ stack, page, errors, view } = await openSeededPage({ comments: ["A first comment."] }));
  });
  afterAll(() => stack?.close());

  it("shows no list from the last success under the error, and the lists come back", async () => {
    await mail().getByRole("button", { name: "ada@pigeonhole.test" }).click();
    await mail().getByRole("list", { name: "Threads" }).getByText("Notes").click();
    await mail().getByRole("article", { name: "Thread" }).getByText("The first draft.").waitFor();
    await post().getByRole("button", { name: "1 comment" }).click();
    await post().getByRole("list", { name: "Comments" }).getByText("A first comment.").waitFor();

    await wrongKey().check();
    await mail().getByRole("alert").getByText("PIGEONHOLE_INBOX_API_KEY").first().waitFor();
    await forum().getByRole("alert").getByText("PIGEONHOLE_FORUM_API_KEY").first().waitFor();
    // Nothing the API said with the right key is left on the page: not the inboxes, the threads, the open thread,
    // the posts or their comments.
    await expect.poll(() => mail().getByRole("list", { name: "Inboxes" }).getByRole("listitem").count()).toBe(0);
    await expect.poll(() => forum().getByRole("list", { name: "Posts" }).getByRole("listitem").count()).toBe(0);
    for (const text of [
      "ada@pigeonhole.test",
      "grace@pigeonhole.test",
      "Notes",
      "The first draft.",
      "Say something.",
    ]) {
      expect(await page.getByText(text).count(), text).toBe(0);
    }
    expect(await page.getByRole("list", { name: "Threads" }).count()).toBe(0);
    expect(await page.getByRole("list", { name: "Comments" }).count()).toBe(0);
    // One box a pane, for the list that could not be loaded.
    expect(await mail().getByRole("alert").count()).toBe(1);
    expect(await forum().getByRole("alert").count()).toBe(1);
    await stack.screenshot(page, "wrong-key-no-stale-lists");

    await wrongKey().uncheck();
    await mail().getByRole("list", { name: "Threads" }).getByText("Notes").waitFor();
    await post().waitFor();
    expect(await mail().getByRole("button", { name: "ada@pigeonhole.test" }).getAttribute("aria-pressed")).toBe("true");
    expect(await page.getByRole("alert").count()).toBe(0);
    // Chromium logs each call the sample's server answered 400 or 401; apart from those, nothing went wrong.
    expect(errors.list.filter((error) => !/status of 40[01] /.test(error))).toEqual([]);
  });
});
