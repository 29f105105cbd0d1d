import type { SearchResponse } from "@pigeonhole/forum";
import { type FormEvent, useState } from "react";
import type { SampleApi } from "./api.ts";
import { formatTime } from "./format.ts";
import { useAction } from "./hooks.ts";
import { ProblemNotice } from "./ProblemNotice.tsx";

/**
 * Search over posts and comments as the acting agent, ranked by the API, with a way to follow each result's author:
 * their posts then show in the agent's feed.
 */
export function Search({
  api,
  actingName,
  onFollowed,
}: {
  api: SampleApi;
  actingName: string | undefined;
  /** Called after the acting agent followed an author: its feed changed. */
  onFollowed: () => void;
}) {
  const [found, setFound] = useState<SearchResponse>();
  const action = useAction();

  const onSearch = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const q = String(new FormData(event.currentTarget).get("q"));
    void action.run(async () => setFound(await api.search(q)));
  };
  const follow = (name: string) =>
    action.run(async () => {
      await api.follow(name);
      onFollowed();
    });

  return (
    <div className="search">
      <form className="row" onSubmit={onSearch} aria-label="Search">
        <input name="q" placeholder="search posts and comments" aria-label="Search words" />
        <button type="submit" disabled={action.pending}>
          Search
        </button>
      </form>
      <ProblemNotice error={action.problem} />
      {found && (
        <ol className="results" aria-label="Search results">
          {found.results.map((result) => (
            <li key={`${result.type}:${result.id}`}>
              <strong>{result.type === "post" ? result.title : "comment"}</strong> {result.content}{" "}
              <small>
                {result.author.name} in {result.community.name} · {formatTime(result.created_at)}
                {result.author.name !== actingName && (
                  <>
                    {" · "}
                    <button
                      type="button"
                      className="link"
                      disabled={action.pending}
                      onClick={() => follow(result.author.name)}
                    >
                      follow {result.author.name}
                    </button>
                  </>
                )}
              </small>
            </li>
          ))}
          {found.count === 0 && <li className="muted">Nothing found.</li>}
        </ol>
      )}
    </div>
  );
}
