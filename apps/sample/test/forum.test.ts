import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Stack, startStack } from "./stack.ts";

// The pane shows 5 posts a page. Every API key is one agent, so a vote moves a post's score by one at most, and
// in `hot` order log10(max(|score|, 1)) = 0: a vote changes the counts, never the order. The order changes only
// with new posts, the sort and the page, and the tests check exactly that.

describe("the Forum pane, in Chromium", () => {
  let stack: Stack;
  let page: Page;

  const titlesOnPage = () => page.getByRole("list", { name: "Posts" }).getByRole("heading").allTextContents();
  const titlesFromApi = async (sort: "hot" | "new", offset: number) => {
    const answer = await stack.forum.get("/api/v1/posts", { params: { query: { sort, offset, limit: 5 } } });
    return answer.posts.map((post) => post.title);
  };
  const postItem = (title: string) =>
    page
      .getByRole("list", { name: "Posts" })
      .getByRole("listitem")
      .filter({ has: page.getByRole("heading", { name: title }) });
  const scoreOf = (title: string) => postItem(title).getByTitle("upvotes − downvotes").textContent();
  const pressed = (title: string, button: "Upvote" | "Downvote") =>
    page.getByRole("button", { name: `${button} ${title}` }).getAttribute("aria-pressed");

  beforeAll(async () => {
    stack = await startStack();
    for (let n = 1; n <= 7; n++) {
      await stack.forum.post("/api/v1/posts", { body: { title: `Post ${n}`, content: `Number ${n} of seven.` } });
    }
    ({ page } = await stack.openPage());
    await page.getByRole("heading", { name: "Post 7" }).waitFor();
  });
  afterAll(() => stack?.close());

  it("pages through the posts in the order the API gives, hot and new", async () => {
    expect(await titlesOnPage()).toEqual(await titlesFromApi("hot", 0));
    expect(await titlesOnPage()).toHaveLength(5);

    await page.getByRole("button", { name: "Next →" }).click();
    await page.getByRole("heading", { name: "Post 1" }).waitFor();
    expect(await titlesOnPage()).toEqual(await titlesFromApi("hot", 5));
    expect(await page.getByRole("button", { name: "Next →" }).isDisabled()).toBe(true);

    await page.getByRole("button", { name: "← Previous" }).click();
    await page.getByRole("heading", { name: "Post 7" }).waitFor();
    await page.getByRole("button", { name: "new", exact: true }).click();
    await expect.poll(titlesOnPage).toEqual(await titlesFromApi("new", 0));
    await page.getByRole("button", { name: "hot", exact: true }).click();
  });

  it("counts a vote and highlights it, and the order stays the API's", async () => {
    const before = await titlesOnPage();

    await page.getByRole("button", { name: "Upvote Post 5" }).click();
    await expect.poll(() => scoreOf("Post 5")).toBe("1");
    await postItem("Post 5").getByText("▲ 1 ▼ 0").waitFor();
    expect(await pressed("Post 5", "Upvote")).toBe("true");
    expect(await titlesOnPage()).toEqual(before);
    expect(await titlesOnPage()).toEqual(await titlesFromApi("hot", 0));
    await stack.screenshot(page, "forum-upvoted");

    // The other direction replaces the vote; the same direction again takes it back.
    await page.getByRole("button", { name: "Downvote Post 5" }).click();
    await expect.poll(() => scoreOf("Post 5")).toBe("-1");
    expect([await pressed("Post 5", "Upvote"), await pressed("Post 5", "Downvote")]).toEqual(["false", "true"]);
    expect(await titlesOnPage()).toEqual(await titlesFromApi("hot", 0));

    await page.getByRole("button", { name: "Downvote Post 5" }).click();
    await expect.poll(() => scoreOf("Post 5")).toBe("0");
    expect(await pressed("Post 5", "Downvote")).toBe("false");
    expect(await titlesOnPage()).toEqual(before);
  });

  it("puts a new post first, in hot and in new", async () => {
    const form = page.getByRole("form", { name: "New post" });
    await form.getByLabel("Title").fill("Fresh from the sample");
    await form.getByLabel("Content").fill("Written in the browser, posted by the sample's server.");
    await form.getByRole("button", { name: "Post" }).click();
    await expect.poll(async () => (await titlesOnPage())[0]).toBe("Fresh from the sample");
    expect(await titlesOnPage()).toEqual(await titlesFromApi("hot", 0));

    await page.getByRole("button", { name: "new", exact: true }).click();
    await expect.poll(titlesOnPage).toEqual(await titlesFromApi("new", 0));
    expect((await titlesOnPage())[0]).toBe("Fresh from the sample");
    await page.getByRole("button", { name: "hot", exact: true }).click();
    await expect.poll(async () => (await titlesOnPage())[0]).toBe("Fresh from the sample");
  });

  it("adds a comment and shows the new count", async () => {
    const post = postItem("Fresh from the sample");
    await post.getByRole("button", { name: "0 comments" }).click();
    await post.getByLabel("Comment text").fill("Nice to see it work end to end.");
    await post.getByRole("button", { name: "Comment", exact: true }).click();
    await post.getByRole("list", { name: "Comments" }).getByText("Nice to see it work end to end.").waitFor();
    await post.getByRole("button", { name: "1 comment" }).waitFor();
    await stack.screenshot(page, "forum-commented");
  });
});
