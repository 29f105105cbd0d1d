import { useEffect, useRef, useState } from "react";

/**
 * For each post on the page, how many of the posts that were ahead of it in the last answer for the same view (sort
 * and page) it has overtaken: votes move posts in `hot` order, and the page points out the ones that rose. Posts that
 * came or went in between are left out of the count, so a new post on top or a deleted one above moves nobody.
 */
export function useRankMoves(posts: readonly { id: string }[] | undefined, view: string): ReadonlyMap<string, number> {
  const [moves, setMoves] = useState<ReadonlyMap<string, number>>(new Map());
  const last = useRef<{ view: string; ids: string[] }>(undefined);
  useEffect(() => {
    if (posts === undefined) {
      return;
    }
    const ids = posts.map((post) => post.id);
    const before = last.current;
    last.current = { view, ids };
    setMoves(before?.view === view ? overtakes(before.ids, ids) : new Map());
  }, [posts, view]);
  return moves;
}

/** How many posts each post has passed between two orders of the same page, counting only posts in both. */
export function overtakes(before: readonly string[], after: readonly string[]): Map<string, number> {
  const kept = after.filter((id) => before.includes(id));
  const moves = new Map<string, number>();
  for (const [position, id] of kept.entries()) {
    const passed = kept.slice(position + 1).filter((other) => before.indexOf(other) < before.indexOf(id)).length;
    if (passed > 0) {
      moves.set(id, passed);
    }
  }
  return moves;
}
