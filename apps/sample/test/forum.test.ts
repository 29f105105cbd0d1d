import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Stack, startStack, WRITER } from "./stack.ts";

// The pane shows 5 posts a page, from one forum shared by every agent. The posts a test starts with are the writer's;
// the page acts as one of the sample's three agents at a time. In `hot` order the author's own vote counts: a post
// no other agent voted on has s = 1, worth log10(1) = 0, and another agent's first upvote makes it 2, worth about
// 3.8 hours of age, so the post rises above the newer ones. The tests check the page against the API after every step.

const EARLY = "An early comment.";
const LATER = "A later comment.";
const REPLY = "A reply to the early one.";
const THREAD_TEXTS = [EARLY, LATER, REPLY];

describe("the Forum pane, in Chromium", () => {
  let stack: Stack;
  let page: Page;
  /** The sample's agents by name, its own first. */
  let agentNames: string[];

  const forum = () => page.getByRole("region", { name: "Forum" });
  const titlesOnPage = () => page.getByRole("list", { name: "Posts" }).getByRole("heading").allTextContents();
  const titlesFromApi = async (sort: "hot" | "new", offset: number) => {
    const answer = await stack.writer.get("/api/v1/posts", { params: { query: { sort, offset, limit: 5 } } });
    return answer.posts.map((post) => post.title);
  };
  const postItem = (title: string) =>
    page
      .getByRole("list", { name: "Posts" })
      .getByRole("listitem")
      .filter({ has: page.getByRole("heading", { name: title, exact: true }) });
  const scoreOf = (title: string) => postItem(title).getByTitle("upvotes − downvotes").textContent();
  const voteButton = (title: string, button: "Upvote" | "Downvote") =>
    page.getByRole("button", { name: `${button} ${title}`, exact: true });
  const pressed = (title: string, button: "Upvote" | "Downvote") =>
    voteButton(title, button).getAttribute("aria-pressed");
  const actAs = async (index: number) => {
    const button = forum()
      .getByRole("group", { name: "Acting as" })
      .getByRole("button", { name: agentNames[index], exact: true });
    await button.click();
    await expect.poll(() => button.getAttribute("aria-pressed")).toBe("true");
  };

  beforeAll(async () => {
    stack = await startStack();
    for (let n = 1; n <= 7; n++) {
      await stack.writer.post("/api/v1/posts", { body: { title: `Post ${n}`, content: `Number ${n} of seven.` } });
    }
    agentNames = (await stack.agents.list()).map(({ agent }) => agent.name);
    ({ page } = await stack.openPage());
    await page.getByRole("heading", { name: "Post 7" }).waitFor();
  });
  afterAll(() => stack?.close());

  it("acts as the sample's own agent first, and offers two more", async () => {
    const buttons = forum().getByRole("group", { name: "Acting as" }).getByRole("button");
    await expect.poll(() => buttons.allTextContents()).toEqual(agentNames);
    expect(agentNames).toHaveLength(3);
    expect(new Set(agentNames).size).toBe(3);
    expect(agentNames[0]).toBe("pigeonhole-dev");
    expect(await buttons.first().getAttribute("aria-pressed")).toBe("true");
    await postItem("Post 7").getByText(WRITER).waitFor();
  });

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

  it("moves a post up the hot order at another agent's first upvote, and says so", async () => {
    const before = await titlesOnPage();
    expect(before).toEqual(["Post 7", "Post 6", "Post 5", "Post 4", "Post 3"]);

    // Another agent's first upvote: with the author's own vote counted (s = 2), Post 3 passes the four newer posts.
    await voteButton("Post 3", "Upvote").click();
    await expect.poll(titlesOnPage).toEqual(["Post 3", "Post 7", "Post 6", "Post 5", "Post 4"]);
    expect(await titlesOnPage()).toEqual(await titlesFromApi("hot", 0));
    await postItem("Post 3").getByText("▲ moved up 4 places").waitFor();
    await postItem("Post 3").getByText("▲ 1 ▼ 0").waitFor();
    expect(await pressed("Post 3", "Upvote")).toBe("true");
    expect(
      await forum()
        .getByText(/moved up/)
        .count(),
    ).toBe(1);
    await stack.screenshot(page, "forum-hot-order-moved");

    // The second agent has not voted yet: its page shows no vote of its own.
    await actAs(1);
    await expect.poll(() => pressed("Post 3", "Upvote")).toBe("false");
    expect(await scoreOf("Post 3")).toBe("1");

    // Its upvote makes the score 2: Post 3 stays first.
    await voteButton("Post 3", "Upvote").click();
    await expect.poll(() => scoreOf("Post 3")).toBe("2");
    await postItem("Post 3").getByText("▲ 2 ▼ 0").waitFor();
    expect(await pressed("Post 3", "Upvote")).toBe("true");
    expect(await titlesOnPage()).toEqual(["Post 3", "Post 7", "Post 6", "Post 5", "Post 4"]);
    expect(await titlesOnPage()).toEqual(await titlesFromApi("hot", 0));
    await stack.screenshot(page, "forum-upvoted");

    // `new` ignores votes.
    await page.getByRole("button", { name: "new", exact: true }).click();
    await expect.poll(titlesOnPage).toEqual(["Post 7", "Post 6", "Post 5", "Post 4", "Post 3"]);
    await page.getByRole("button", { name: "hot", exact: true }).click();
    await expect.poll(async () => (await titlesOnPage())[0]).toBe("Post 3");
  });

  it("flips and takes back the acting agent's vote, and the order follows the score", async () => {
    // The other direction replaces this agent's vote: +1 from the first agent, -1 from this one.
    await voteButton("Post 3", "Downvote").click();
    await expect.poll(() => scoreOf("Post 3")).toBe("0");
    expect([await pressed("Post 3", "Upvote"), await pressed("Post 3", "Downvote")]).toEqual(["false", "true"]);
    await expect.poll(titlesOnPage).toEqual(["Post 7", "Post 6", "Post 5", "Post 4", "Post 3"]);
    expect(await titlesOnPage()).toEqual(await titlesFromApi("hot", 0));

    // The same direction again takes it back.
    await voteButton("Post 3", "Downvote").click();
    await expect.poll(() => scoreOf("Post 3")).toBe("1");
    expect(await pressed("Post 3", "Downvote")).toBe("false");

    // Each agent sees its own vote: the first agent's upvote is still there.
    await actAs(0);
    await expect.poll(() => pressed("Post 3", "Upvote")).toBe("true");
    const { post } = await (await stack.agents.client(undefined)).get("/api/v1/posts/{post_id}", {
      params: { path: { post_id: await postId("Post 3") } },
    });
    expect([post.upvotes, post.downvotes, post.my_vote]).toEqual([1, 0, "up"]);
  });

  it("puts a new post first in new, and in hot above the posts no other agent voted on", async () => {
    const form = page.getByRole("form", { name: "New post" });
    await form.getByLabel("Title").fill("Fresh from the sample");
    await form.getByLabel("Content").fill("Written in the browser, posted by the sample's server.");
    await form.getByRole("button", { name: "Post" }).click();
    // Post 3 keeps its upvote (s = 2, hours of age ahead): the new post, with its author's vote only, comes next.
    const hotWithNewPost = ["Post 3", "Fresh from the sample", "Post 7", "Post 6", "Post 5"];
    await expect.poll(titlesOnPage).toEqual(hotWithNewPost);
    expect(await titlesOnPage()).toEqual(await titlesFromApi("hot", 0));
    await postItem("Fresh from the sample").getByText(`${agentNames[0]} (you)`).waitFor();
    expect(await voteButton("Fresh from the sample", "Upvote").isDisabled()).toBe(true);
    expect(await voteButton("Fresh from the sample", "Downvote").isDisabled()).toBe(true);

    await page.getByRole("button", { name: "new", exact: true }).click();
    await expect.poll(titlesOnPage).toEqual(await titlesFromApi("new", 0));
    expect((await titlesOnPage())[0]).toBe("Fresh from the sample");
    await page.getByRole("button", { name: "hot", exact: true }).click();
    await expect.poll(titlesOnPage).toEqual(hotWithNewPost);

    // Another agent may vote on it: its first upvote makes s = 2, as Post 3's, and the newer post passes it.
    await actAs(2);
    await expect.poll(() => voteButton("Fresh from the sample", "Upvote").isEnabled()).toBe(true);
    await voteButton("Fresh from the sample", "Upvote").click();
    await expect.poll(() => scoreOf("Fresh from the sample")).toBe("1");
    await expect.poll(titlesOnPage).toEqual(["Fresh from the sample", "Post 3", "Post 7", "Post 6", "Post 5"]);
    expect(await titlesOnPage()).toEqual(await titlesFromApi("hot", 0));
    await postItem("Fresh from the sample").getByText("▲ moved up 1 place").waitFor();
  });

  it("comments as one agent, and lets only that agent delete the comment, which stays as [deleted]", async () => {
    const post = postItem("Fresh from the sample");
    await post.getByRole("button", { name: "0 comments" }).click();
    await post.getByLabel("Comment text").fill("Nice to see it work end to end.");
    await post.getByRole("button", { name: "Comment", exact: true }).click();
    const comments = post.getByRole("list", { name: "Comments" });
    await comments.getByText("Nice to see it work end to end.").waitFor();
    await comments.getByText(agentNames[2] ?? "").waitFor();
    await post.getByRole("button", { name: "1 comment" }).waitFor();
    await stack.screenshot(page, "forum-commented");

    // The post's author may not delete another agent's comment: the page offers it only to the comment's author.
    await actAs(0);
    await post.getByRole("button", { name: "1 comment" }).waitFor();
    await comments.getByText("Nice to see it work end to end.").waitFor();
    expect(await comments.getByRole("button", { name: /^Delete comment/ }).count()).toBe(0);

    await actAs(2);
    await comments.getByRole("button", { name: "Delete comment: Nice to see it work end to end." }).click();
    await comments.getByText("[deleted]").waitFor();
    await post.getByRole("button", { name: "0 comments" }).waitFor();
    expect(await comments.getByText("Nice to see it work end to end.").count()).toBe(0);
    expect(await comments.getByText(agentNames[2] ?? "").count()).toBe(0);
  });

  it("lets a post's author delete it", async () => {
    const id = await postId("Fresh from the sample");
    // Only its author is offered the button.
    expect(await forum().getByRole("button", { name: "Delete Fresh from the sample" }).count()).toBe(0);
    await actAs(0);
    await forum().getByRole("button", { name: "Delete Fresh from the sample" }).click();
    // The API's list is read once the page no longer shows the post: read at the click, it could still hold it.
    await expect.poll(titlesOnPage).not.toContain("Fresh from the sample");
    await expect.poll(titlesOnPage).toEqual(await titlesFromApi("hot", 0));
    const { response } = await stack.writer.GET("/api/v1/posts/{post_id}", { params: { path: { post_id: id } } });
    expect(response.status).toBe(404);
    expect(await page.getByRole("alert").count()).toBe(0);
  });

  it("threads replies under their comment, and orders each level by the votes of other agents", async () => {
    const post = postItem("Post 7");
    const comments = post.getByRole("list", { name: "Comments" });
    const say = async (text: string) => {
      await post.getByLabel("Comment text").fill(text);
      await post.getByRole("button", { name: "Comment", exact: true }).click();
      await comments.getByText(text).waitFor();
    };
    /** The comments as the page lists them: each one's text, indented by its depth. */
    const threadOnPage = async () =>
      Promise.all(
        (await comments.getByRole("listitem").all()).map(async (item) => {
          const indent = await item.evaluate((element) => (element as HTMLElement).style.marginLeft);
          const text = (await item.textContent()) ?? "";
          return `${indent === "0em" ? "" : "  "}${THREAD_TEXTS.find((known) => text.includes(known))}`;
        }),
      );
    const threadFromApi = async () => {
      const { comments: listed } = await stack.writer.get("/api/v1/posts/{post_id}/comments", {
        params: { path: { post_id: await postId("Post 7") } },
      });
      return listed.map((comment) => `${comment.depth === 0 ? "" : "  "}${comment.content}`);
    };

    await actAs(0);
    await post.getByRole("button", { name: "0 comments" }).click();
    await say(EARLY);
    await say(LATER);

    // The second agent upvotes the later comment: at the top level it now comes first.
    await actAs(1);
    await comments.getByRole("button", { name: `Upvote comment: ${LATER}` }).click();
    await expect.poll(threadOnPage).toEqual([LATER, EARLY]);
    expect(await comments.getByRole("button", { name: `Upvote comment: ${LATER}` }).getAttribute("aria-pressed")).toBe(
      "true",
    );

    // Its reply to the early comment is listed right under it, indented; its own comment has no vote buttons.
    await comments.getByRole("button", { name: `Reply to comment: ${EARLY}` }).click();
    await post.getByText(`Replying to ${agentNames[0]}: ${EARLY}`).waitFor();
    await say(REPLY);
    await expect.poll(threadOnPage).toEqual([LATER, EARLY, `  ${REPLY}`]);
    expect(await threadOnPage()).toEqual(await threadFromApi());
    expect(await comments.getByRole("button", { name: `Upvote comment: ${REPLY}` }).count()).toBe(0);
    await post.getByRole("button", { name: "3 comments" }).waitFor();
    await stack.screenshot(page, "forum-threaded-comments");
  });

  it("finds posts and comments by their words, and shows the posts of a followed author in the feed", async () => {
    const search = forum().getByRole("form", { name: "Search" });
    const results = forum().getByRole("list", { name: "Search results" });
    const feedButton = forum().getByRole("button", { name: "Your feed", exact: true });

    // The second agent follows no one yet: its feed is empty.
    await feedButton.click();
    await forum().getByText("Your feed is empty.").waitFor();
    expect(await titlesOnPage()).toEqual([]);

    await search.getByLabel("Search words").fill("early");
    await search.getByRole("button", { name: "Search" }).click();
    await results.getByText(EARLY).waitFor();
    const found = await stack.writer.get("/api/v1/search", { params: { query: { q: "early", limit: 10 } } });
    // Both comments with the word, as the API ranks them, each typed and with its author to follow.
    expect(found.results.map((result) => result.type)).toEqual(["comment", "comment"]);
    expect(found.results.map((result) => result.content).sort()).toEqual([EARLY, REPLY].sort());
    expect(await results.getByRole("listitem").allTextContents()).toEqual(
      found.results.map((result) => expect.stringContaining(result.content)),
    );

    await search.getByLabel("Search words").fill("seven");
    await search.getByRole("button", { name: "Search" }).click();
    await results.getByText("Number 7 of seven.").waitFor();
    await results
      .getByRole("button", { name: `follow ${WRITER}` })
      .first()
      .click();
    // The feed reloads with the writer's posts, in the order the API gives.
    await expect.poll(titlesOnPage).toContain("Post 7");
    const feed = await (await stack.agents.client(await agentId(1))).get("/api/v1/feed", {
      params: { query: { sort: "hot", limit: 5 } },
    });
    expect(await titlesOnPage()).toEqual(feed.posts.map((post) => post.title));
    expect(feed.posts.every((post) => post.author.name === WRITER)).toBe(true);
    await stack.screenshot(page, "forum-feed-followed");

    // The third agent subscribes to the community every post is in: its feed holds them all.
    await actAs(2);
    await forum().getByText("Your feed is empty.").waitFor();
    await forum().getByRole("button", { name: "Subscribe to general" }).click();
    await expect.poll(titlesOnPage).toEqual(await titlesFromApi("hot", 0));
    expect(await page.getByRole("alert").count()).toBe(0);
    await forum().getByRole("button", { name: "All posts", exact: true }).click();
  });

  /** The id of the sample's agent at this index, from the sample's server. */
  async function agentId(index: number): Promise<string> {
    const agent = (await stack.agents.list())[index]?.agent;
    if (agent === undefined) {
      throw new Error(`No agent at ${index}`);
    }
    return agent.id;
  }

  /** The id of the post with this title, from the API. */
  async function postId(title: string): Promise<string> {
    const { posts } = await stack.writer.get("/api/v1/posts", { params: { query: { sort: "new", limit: 100 } } });
    const found = posts.find((post) => post.title === title);
    if (found === undefined) {
      throw new Error(`No post titled ${title}`);
    }
    return found.id;
  }
});
