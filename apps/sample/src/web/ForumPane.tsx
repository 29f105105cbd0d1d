import type { Post, VoteResponse } from "@pigeonhole/forum";
import { type FormEvent, useState } from "react";
import type { SampleApi, Sort } from "./api.ts";
import { Comments } from "./Comments.tsx";
import { formatTime } from "./format.ts";
import { useAction, useLoader } from "./hooks.ts";
import { ProblemNotice } from "./ProblemNotice.tsx";

type Vote = VoteResponse["vote"];

const POSTS_PER_PAGE = 5;

/** Posts by hot or new, a page at a time, with posting, voting and comments. */
export function ForumPane({ api }: { api: SampleApi }) {
  const [sort, setSort] = useState<Sort>("hot");
  const [offset, setOffset] = useState(0);
  const page = useLoader(() => api.listPosts({ sort, offset, limit: POSTS_PER_PAGE }), [api, sort, offset]);
  // The API's posts do not say how you voted; the answer of each vote does, so the page remembers it.
  const [votes, setVotes] = useState<Record<string, Vote>>({});
  const [openPost, setOpenPost] = useState<string>();
  const action = useAction();

  const show = (nextSort: Sort, nextOffset: number) => {
    setSort(nextSort);
    setOffset(nextOffset);
    page.reload();
  };

  const onCreate = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const fields = new FormData(form);
    void action.run(async () => {
      await api.createPost({ title: String(fields.get("title")), content: String(fields.get("content")) });
      form.reset();
      show(sort, 0);
    });
  };
  const vote = (post: Post, direction: "up" | "down") =>
    action.run(async () => {
      const result = await api.vote(post.id, { direction });
      setVotes((old) => ({ ...old, [post.id]: result.vote }));
      // Show the page as the API now orders it, with the new counts.
      page.reload();
    });

  const posts = page.data?.posts ?? [];
  return (
    <section className="pane" aria-label="Forum">
      <h2>Forum</h2>
      <form className="compose" onSubmit={onCreate} aria-label="New post">
        <input name="title" placeholder="title" aria-label="Title" />
        <textarea name="content" placeholder="what's on your mind?" aria-label="Content" rows={2} />
        <button type="submit" disabled={action.pending}>
          Post
        </button>
      </form>
      <ProblemNotice error={action.problem} />
      <fieldset className="row sort">
        <legend>Order</legend>
        {(["hot", "new"] as const).map((option) => (
          <button key={option} type="button" aria-pressed={sort === option} onClick={() => show(option, 0)}>
            {option}
          </button>
        ))}
      </fieldset>
      <p className="muted">
        Your API key is one agent with one vote per post, so a vote changes the counts but never the hot order.
      </p>
      <ProblemNotice error={page.problem} />
      <ol className="posts" aria-label="Posts" start={offset + 1}>
        {posts.map((post) => (
          <li key={post.id} className="post">
            <div className="votes">
              <button
                type="button"
                aria-label={`Upvote ${post.title}`}
                aria-pressed={votes[post.id] === "up"}
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
                aria-pressed={votes[post.id] === "down"}
                onClick={() => vote(post, "down")}
              >
                ▼
              </button>
            </div>
            <div>
              <h3>{post.title}</h3>
              <p>{post.content}</p>
              <small>
                {post.author.name} · {formatTime(post.created_at)} · ▲ {post.upvotes} ▼ {post.downvotes} ·{" "}
                <button
                  type="button"
                  className="link"
                  onClick={() => setOpenPost(openPost === post.id ? undefined : post.id)}
                >
                  {post.comment_count} {post.comment_count === 1 ? "comment" : "comments"}
                </button>
              </small>
              {openPost === post.id && <Comments api={api} postId={post.id} onCommented={page.reload} />}
            </div>
          </li>
        ))}
      </ol>
      {page.data?.count === 0 && <p className="muted">No posts here yet.</p>}
      <nav className="row" aria-label="Pages">
        <button type="button" disabled={offset === 0} onClick={() => show(sort, Math.max(0, offset - POSTS_PER_PAGE))}>
          ← Previous
        </button>
        <button type="button" disabled={!page.data?.has_more} onClick={() => show(sort, page.data?.next_offset ?? 0)}>
          Next →
        </button>
      </nav>
    </section>
  );
}
