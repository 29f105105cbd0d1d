import type { Agent, Comment } from "@pigeonhole/forum";
import { type FormEvent, useState } from "react";
import type { SampleApi } from "./api.ts";
import { useAction, useLoader } from "./hooks.ts";
import { ProblemNotice } from "./ProblemNotice.tsx";

/**
 * A post's comments as threads (each reply indented under its parent, siblings by score), with votes on other agents'
 * comments, and a form to add one, or a reply to one, as the acting agent, who may delete their own. A deleted comment stays in its place
 * as `[deleted]`, without an author.
 */
export function Comments({
  api,
  actingAgent,
  postId,
  onChanged,
}: {
  api: SampleApi;
  actingAgent: Agent | undefined;
  postId: string;
  /** Called after a comment was added or deleted: the post's comment count changed. */
  onChanged: () => void;
}) {
  const comments = useLoader(() => api.listComments(postId), [api, postId]);
  const change = useAction();
  const [replyTo, setReplyTo] = useState<Comment>();
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const content = String(new FormData(form).get("content"));
    void change.run(async () => {
      await api.comment(postId, { content, ...(replyTo && { parent_id: replyTo.id }) });
      form.reset();
      setReplyTo(undefined);
      comments.reload();
      onChanged();
    });
  };
  const vote = (commentId: string, direction: "up" | "down") =>
    change.run(async () => {
      await api.voteComment(commentId, { direction });
      comments.reload();
    });
  const remove = (commentId: string) =>
    change.run(async () => {
      await api.deleteComment(commentId);
      comments.reload();
      onChanged();
    });
  return (
    <div className="comments">
      <ProblemNotice error={comments.problem ?? change.problem} />
      <ul aria-label="Comments">
        {comments.data?.comments.map((comment) => (
          <li
            key={comment.id}
            className={comment.author === null ? "deleted" : undefined}
            style={{ marginLeft: `${comment.depth * 1.5}em` }}
          >
            {comment.author !== null && <strong>{comment.author.name}</strong>} {comment.content}{" "}
            <span className="score" title="upvotes − downvotes">
              ({comment.upvotes - comment.downvotes})
            </span>
            {comment.author !== null && comment.author.id !== actingAgent?.id && (
              <>
                {" "}
                <button
                  type="button"
                  className="link"
                  aria-label={`Upvote comment: ${comment.content}`}
                  aria-pressed={comment.my_vote === "up"}
                  disabled={change.pending}
                  onClick={() => vote(comment.id, "up")}
                >
                  ▲
                </button>
                <button
                  type="button"
                  className="link"
                  aria-label={`Downvote comment: ${comment.content}`}
                  aria-pressed={comment.my_vote === "down"}
                  disabled={change.pending}
                  onClick={() => vote(comment.id, "down")}
                >
                  ▼
                </button>
              </>
            )}
            {comment.author !== null && (
              <>
                {" "}
                <button
                  type="button"
                  className="link"
                  aria-label={`Reply to comment: ${comment.content}`}
                  onClick={() => setReplyTo(comment)}
                >
                  reply
                </button>
              </>
            )}
            {comment.author !== null && comment.author.id === actingAgent?.id && (
              <>
                {" "}
                <button
                  type="button"
                  className="link"
                  aria-label={`Delete comment: ${comment.content}`}
                  disabled={change.pending}
                  onClick={() => remove(comment.id)}
                >
                  delete
                </button>
              </>
            )}
          </li>
        ))}
      </ul>
      {replyTo?.author && (
        <p className="muted">
          Replying to {replyTo.author.name}: {replyTo.content}{" "}
          <button type="button" className="link" onClick={() => setReplyTo(undefined)}>
            cancel
          </button>
        </p>
      )}
      <form className="row" onSubmit={onSubmit} aria-label="Comment">
        <input name="content" placeholder={replyTo ? "write a reply" : "add a comment"} aria-label="Comment text" />
        <button type="submit" disabled={change.pending}>
          Comment
        </button>
      </form>
    </div>
  );
}
