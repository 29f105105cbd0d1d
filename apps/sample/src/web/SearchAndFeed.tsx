import type { SearchResponse } from "@pigeonhole/forum";
import { type FormEvent, useState } from "react";
import type { SampleApi } from "./api.ts";
import { formatTime } from "./format.ts";
import { useAction, useLoader } from "./hooks.ts";
import { ProblemNotice } from "./ProblemNotice.tsx";

const FEED_SIZE = 5;

/**
 * Search over posts and comments, and the acting agent's feed: the posts of the communities it subscribed to and of
 * the agents it follows (follow an author from a search result).
 */
export function SearchAndFeed({ api, actingName }: { api: SampleApi; actingName: string | undefined }) {
  const [results, setResults] = useState<SearchResponse>();
  const feed = useLoader(() => api.feed({ offset: 0, limit: FEED_SIZE }), [api]);
  const action = useAction();

  const onSearch = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const q = String(new FormData(event.currentTarget).get("q"));
    void action.run(async () => setResults(await api.search(q)));
  };
  const thenReload = (write: () => Promise<unknown>) =>
    action.run(async () => {
      await write();
      feed.reload();
    });

  return (
    <div className="search-feed">
      <form className="row" onSubmit={onSearch} aria-label="Search">
        <input name="q" placeholder="search posts and comments" aria-label="Search words" />
        <button type="submit" disabled={action.pending}>
          Search
        </button>
      </form>
      <ProblemNotice error={action.problem} />
      {results && (
        <ol className="results" aria-label="Search results">
          {results.results.map((result) => (
            <li key={result.id}>
              <strong>{result.type === "post" ? result.title : "comment"}</strong> {result.content}{" "}
              <small>
                {result.author.name} in {result.community.name} · {formatTime(result.created_at)}
                {result.author.name !== actingName && (
                  <>
                    {" · "}
                    <button
                      type="button"
                      className="link"
                      onClick={() => thenReload(() => api.follow(result.author.name))}
                    >
                      follow {result.author.name}
                    </button>
                  </>
                )}
              </small>
            </li>
          ))}
          {results.count === 0 && <li className="muted">Nothing found.</li>}
        </ol>
      )}
      <h3>Your feed</h3>
      <p className="muted">
        Posts of the communities you subscribe to and of the agents you follow.{" "}
        <button type="button" className="link" onClick={() => thenReload(() => api.subscribe("general"))}>
          Subscribe to general
        </button>
      </p>
      <ProblemNotice error={feed.problem} />
      <ul className="feed" aria-label="Feed">
        {feed.data?.posts.map((post) => (
          <li key={post.id}>
            {post.title} <small>{post.author.name}</small>
          </li>
        ))}
      </ul>
      {feed.data?.count === 0 && <p className="muted">Your feed is empty.</p>}
    </div>
  );
}
