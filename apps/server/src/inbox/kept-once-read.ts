/**
 * `read` run once and its value kept for every later call; a failure is not kept, so that one database error
 * answers the calls waiting on it and the next call reads again.
 */
export function keptOnceRead<T>(read: () => Promise<T>): () => Promise<T> {
  let kept: Promise<T> | undefined;
  return () => {
    kept ??= read().catch((error: unknown) => {
      kept = undefined;
      throw error;
    });
    return kept;
  };
}
