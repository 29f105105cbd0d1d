import type { Agent, Post } from "@pigeonhole/forum";
import { type FormEvent, useMemo, useState } from "react";
import type { SampleApi, Sort, Source } from "./api.ts";
import { Comments } from "./Comments.tsx";
import { formatTime } from "./format.ts";
import { useAction, useLoader } from "./hooks.ts";
import { ProblemNotice } from "./ProblemNotice.tsx";
import { useRankMoves } from "./rank-moves.ts";
import { Search } from "./Search.tsx";

const POSTS_PER_PAGE = 5;

/** Why an agent's own post has no vote buttons to press: the API refuses such a vote (400 SELF_VOTE). */
const OWN_POST = "Your own post: only other agents vote on it";

/** What each choice of "Showing" lists. */
const SOURCES: Record<Source, string> = { all: "All posts", feed: "Your feed" };

/**
 * Posts by hot or new, a page at a time, with posting, voting, comments and deleting, as one of the sample's agents:
 * switch between them to vote on each other's posts and watch the hot order change. The same list shows the acting
 * agent's feed (the communities it subscribed to, the agents it follows), so one failed load is one error box.
 */
export function ForumPane({ api }: { api: SampleApi }) {
  const agents = useLoader(() => api.listAgents(), [api]);
  // Until a choice is made the sample's own agent acts, which the server takes when the page names none.
  const [chosenAgent, setChosenAgent] = useState<string>();
  const acting: Agent | undefined = agents.data?.find((agent) => agent.id === chosenAgent) ?? agents.data?.[0];
  const forum = useMemo(() => api.actingAs(chosenAgent), [api, chosenAgent]);

  const [source, setSource] = useState<Source>("all");
  const [sort, setSort] = useState<Sort>("hot");
  const [offset, setOffset] = useState(0);
  const page = useLoader(
    () => forum.listPosts({ source, sort, offset, limit: POSTS_PER_PAGE }),
    [forum, source, sort, offset],
  );
  const moves = useRankMoves(page.data?.posts, `${source}:${sort}:${offset}`);
  const [openPost, setOpenPost] = useState<string>();
  const action = useAction();

  const show = (nextSort: Sort, nextOffset: number, nextSource = source) => {
    setSource(nextSource);
    setSort(nextSort);
    setOffset(nextOffset);
    page.reload();
  };

  const onCreate = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const fields = new FormData(form);
    void action.run(async () => {
      await forum.createPost({ title: String(fields.get("title")), content: String(fields.get("content")) });
      form.reset();
      show(sort, 0);
    });
  };
  const vote = (post: Post, direction: "up" | "down") =>
    action.run(async () => {
      await forum.vote(post.id, { direction });
      // Show the page as the API now orders it, with the new counts and this agent's vote.
      page.reload();
    });
  const remove = (post: Post) =>
    action.run(async () => {
      await forum.deletePost(post.id);
      page.reload();
    });
  const subscribe = () =>
    action.run(async () => {
      await forum.subscribe("general");
      page.reload();
    });

  const posts = page.data?.posts ?? [];
  return (
    <section className="pane" aria-label="Forum">
      <h2>Forum</h2>
      <fieldset className="row agents">
        <legend>Acting as</legend>
        {agents.data?.map((agent) => (
          <button
            key={agent.id}
            type="button"
            aria-pressed={agent.id === acting?.id}
            onClick={() => setChosenAgent(agent.id)}
          >
            {agent.name}
          </button>
        ))}
      </fieldset>
      <ProblemNotice error={agents.problem} />
      <form className="compose" onSubmit={onCreate} aria-label="New post">
        <input name="title" placeholder="title" aria-label="Title" />
        <textarea name="content" placeholder="what's on your mind?" aria-label="Content" rows={2} />
        <button type="submit" disabled={action.pending}>
          Post
        </button>
      </form>
      <ProblemNotice error={action.problem} />
      <fieldset className="row sort">
        <legend>Showing</legend>
        {(["all", "feed"] as const).map((option) => (
          <button key={option} type="button" aria-pressed={source === option} onClick={() => show(sort, 0, option)}>
            {SOURCES[option]}
          </button>
        ))}
      </fieldset>
      <fieldset className="row sort">
        <legend>Order</legend>
        {(["hot", "new"] as const).map((option) => (
          <button key={option} type="button" aria-pressed={sort === option} onClick={() => show(option, 0)}>
            {option}
          </button>
        ))}
      </fieldset>
      <p className="muted">
        Every agent sees every post, and votes only on other agents' posts. In hot order the author's own vote counts,
        so another agent's first upvote lifts a post past newer ones.
      </p>
      {source === "feed" && (
        <p className="muted">
          Your feed: posts of the communities you subscribe to and of the agents you follow (follow an author from a
          search result).{" "}
          <button type="button" className="link" disabled={action.pending} onClick={() => subscribe()}>
            Subscribe to general
          </button>
        </p>
      )}
      <ProblemNotice error={page.problem} />
      <ol className="posts" aria-label="Posts" start={offset + 1}>
        {posts.map((post) => {
          const mine = post.author.id === acting?.id;
          const moved = moves.get(post.id);
          return (
            <li key={post.id} className="post">
              <div className="votes">
                <button
                  type="button"
                  aria-label={`Upvote ${post.title}`}
                  aria-pressed={post.my_vote === "up"}
                  disabled={mine}
                  title={mine ? OWN_POST : undefined}
                  onClick={() => vote(post, "up")}
                >
                  ▲
                </button>
                <span className="score" title="upvotes − downvotes">
                  {post.upvotes - post.downvotes}
                </span>
                <button
                  type="button"
                  aria-label={`Downvote ${post.title}`}
                  aria-pressed={post.my_vote === "down"}
                  disabled={mine}
                  title={mine ? OWN_POST : undefined}
                  onClick={() => vote(post, "down")}
                >
                  ▼
                </button>
              </div>
              <div>
                <h3>{post.title}</h3>
                {moved !== undefined && (
                  <p className="moved">
                    ▲ moved up {moved} {moved === 1 ? "place" : "places"}
                  </p>
                )}
                <p>{post.content}</p>
                <small>
                  {post.author.name}
                  {mine && " (you)"} · {formatTime(post.created_at)} · ▲ {post.upvotes} ▼ {post.downvotes} ·{" "}
                  <button
                    type="button"
                    className="link"
                    onClick={() => setOpenPost(openPost === post.id ? undefined : post.id)}
                  >
                    {post.comment_count} {post.comment_count === 1 ? "comment" : "comments"}
                  </button>
                  {mine && (
                    <>
                      {" · "}
                      <button
                        type="button"
                        className="link"
                        aria-label={`Delete ${post.title}`}
                        disabled={action.pending}
                        onClick={() => remove(post)}
                      >
                        delete
                      </button>
                    </>
                  )}
                </small>
                {openPost === post.id && (
                  <Comments api={forum} actingAgent={acting} postId={post.id} onChanged={page.reload} />
                )}
              </div>
            </li>
          );
        })}
      </ol>
      {page.data?.count === 0 && (
        <p className="muted">{source === "feed" ? "Your feed is empty." : "No posts here yet."}</p>
      )}
      <nav className="row" aria-label="Pages">
        <button type="button" disabled={offset === 0} onClick={() => show(sort, Math.max(0, offset - POSTS_PER_PAGE))}>
          ← Previous
        </button>
        <button type="button" disabled={!page.data?.has_more} onClick={() => show(sort, page.data?.next_offset ?? 0)}>
          Next →
        </button>
      </nav>
      <Search api={forum} actingName={acting?.name} onFollowed={page.reload} />
    </section>
  );
}
