import type { FormEvent } from "react";
import type { SampleApi } from "./api.ts";
import { useAction, useLoader } from "./hooks.ts";
import { ProblemNotice } from "./ProblemNotice.tsx";

/** A post's comments, oldest first, and a form to add one. */
export function Comments({ api, postId, onCommented }: { api: SampleApi; postId: string; onCommented: () => void }) {
  const comments = useLoader(() => api.listComments(postId), [api, postId]);
  const add = useAction();
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const content = String(new FormData(form).get("content"));
    void add.run(async () => {
      await api.comment(postId, { content });
      form.reset();
      comments.reload();
      onCommented();
    });
  };
  return (
    <div className="comments">
      <ProblemNotice error={comments.problem ?? add.problem} />
      <ul aria-label="Comments">
        {comments.data?.comments.map((comment) => (
          <li key={comment.id}>
            <strong>{comment.author.name}</strong> {comment.content}
          </li>
        ))}
      </ul>
      <form className="row" onSubmit={onSubmit} aria-label="Comment">
        <input name="content" placeholder="add a comment" aria-label="Comment text" />
        <button type="submit" disabled={add.pending}>
          Comment
        </button>
      </form>
    </div>
  );
}
