export interface PaginateOptions<TPage, TItem, TCursor> {
  /** Cursor of the first page; undefined lets the server pick its default start. */
  start: TCursor | undefined;
  fetchPage: (cursor: TCursor | undefined) => Promise<TPage>;
  items: (page: TPage) => TItem[];
  /** Cursor of the page after `page`, or null/undefined when it was the last one. */
  next: (page: TPage) => TCursor | null | undefined;
}

/** Every item across pages with `for await`; nothing is fetched until it is iterated, and each iteration starts over. */
export interface Paginator<TPage, TItem> extends AsyncIterable<TItem> {
  pages(): AsyncIterable<TPage>;
  firstPage(): Promise<TPage>;
  /** Collects items, fetching only as many pages as needed to reach `limit`. */
  toArray(limit?: number): Promise<TItem[]>;
}

/** One cursor paginator for every list endpoint: token paging and offset paging differ only in `next`. */
export function paginate<TPage, TItem, TCursor>(
  options: PaginateOptions<TPage, TItem, TCursor>,
): Paginator<TPage, TItem> {
  const { start, fetchPage, items, next } = options;

  async function* pages(): AsyncGenerator<TPage, void, undefined> {
    // Every cursor used so far: a server that hands one back again would otherwise loop forever.
    const seen = new Set<TCursor | undefined>();
    let cursor = start;
    while (true) {
      seen.add(cursor);
      const page = await fetchPage(cursor);
      yield page;
      const following = next(page);
      if (following === null || following === undefined || seen.has(following)) {
        return;
      }
      cursor = following;
    }
  }

  async function* all(): AsyncGenerator<TItem, void, undefined> {
    for await (const page of pages()) {
      yield* items(page);
    }
  }

  return {
    [Symbol.asyncIterator]: () => all(),
    pages,
    firstPage: () => fetchPage(start),
    async toArray(limit?: number): Promise<TItem[]> {
      if (limit !== undefined && !(Number.isInteger(limit) && limit >= 0)) {
        throw new RangeError(`limit must be a non-negative integer, got ${limit}`);
      }
      const out: TItem[] = [];
      if (limit === 0) {
        return out;
      }
      for await (const item of all()) {
        out.push(item);
        if (out.length === limit) {
          break;
        }
      }
      return out;
    },
  };
}
