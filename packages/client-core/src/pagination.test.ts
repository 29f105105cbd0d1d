import { describe, expect, it } from "vitest";
import { paginate } from "./pagination.js";

// Inbox style: `page_token` in, `next_page_token` out.
interface TokenPage {
  inboxes: { inbox_id: string }[];
  next_page_token?: string | null;
}

function tokenApi(pages: Record<string, TokenPage>) {
  const calls: (string | undefined)[] = [];
  const fetchPage = async (token: string | undefined): Promise<TokenPage> => {
    calls.push(token);
    const page = pages[token ?? ""];
    if (!page) {
      throw new Error(`unknown token ${token}`);
    }
    return page;
  };
  return {
    calls,
    paginator: paginate({
      start: undefined,
      fetchPage,
      items: (page) => page.inboxes,
      next: (page) => page.next_page_token,
    }),
  };
}

const threeTokenPages: Record<string, TokenPage> = {
  "": { inboxes: [{ inbox_id: "a" }, { inbox_id: "b" }], next_page_token: "t2" },
  t2: { inboxes: [{ inbox_id: "c" }, { inbox_id: "d" }], next_page_token: "t3" },
  t3: { inboxes: [{ inbox_id: "e" }], next_page_token: null },
};

// Forum style: `offset` in, `has_more` + `next_offset` out.
interface OffsetPage {
  posts: number[];
  has_more: boolean;
  next_offset: number;
}

function offsetApi(total: number, limit: number) {
  const calls: (number | undefined)[] = [];
  const paginator = paginate({
    start: 0,
    fetchPage: async (offset: number | undefined): Promise<OffsetPage> => {
      calls.push(offset);
      const from = offset ?? 0;
      const posts = Array.from({ length: Math.max(0, Math.min(limit, total - from)) }, (_, i) => from + i);
      return { posts, has_more: from + limit < total, next_offset: from + limit };
    },
    items: (page) => page.posts,
    next: (page) => (page.has_more ? page.next_offset : null),
  });
  return { calls, paginator };
}

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const value of iterable) {
    out.push(value);
  }
  return out;
}

describe("paginate with page tokens", () => {
  it("yields every item across 3 pages", async () => {
    const { paginator, calls } = tokenApi(threeTokenPages);
    const ids = (await collect(paginator)).map((inbox) => inbox.inbox_id);
    expect(ids).toEqual(["a", "b", "c", "d", "e"]);
    expect(calls).toEqual([undefined, "t2", "t3"]);
  });

  it("stops when next_page_token is missing", async () => {
    const { paginator, calls } = tokenApi({ "": { inboxes: [{ inbox_id: "a" }] } });
    expect(await paginator.toArray()).toEqual([{ inbox_id: "a" }]);
    expect(calls).toEqual([undefined]);
  });
});

describe("paginate with offsets", () => {
  it("yields every item across 3 pages", async () => {
    const { paginator, calls } = offsetApi(7, 3);
    expect(await collect(paginator)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(calls).toEqual([0, 3, 6]);
  });

  it("stops on has_more: false even when the page is full", async () => {
    const { paginator, calls } = offsetApi(6, 3);
    expect(await paginator.toArray()).toEqual([0, 1, 2, 3, 4, 5]);
    expect(calls).toEqual([0, 3]);
  });
});

describe("paginator", () => {
  it("fetches nothing until iterated", async () => {
    const { paginator, calls } = tokenApi(threeTokenPages);
    expect(calls).toEqual([]);
    const iterator = paginator[Symbol.asyncIterator]();
    expect(calls).toEqual([]);
    await iterator.next();
    expect(calls).toEqual([undefined]);
  });

  it("fetches the next page only when the current one is used up", async () => {
    const { paginator, calls } = tokenApi(threeTokenPages);
    for await (const inbox of paginator) {
      if (inbox.inbox_id === "b") {
        break;
      }
    }
    expect(calls).toEqual([undefined]);
  });

  it("firstPage fetches only the first page", async () => {
    const { paginator, calls } = tokenApi(threeTokenPages);
    expect(await paginator.firstPage()).toBe(threeTokenPages[""]);
    expect(calls).toEqual([undefined]);
  });

  it("pages() yields whole pages", async () => {
    const { paginator } = tokenApi(threeTokenPages);
    const pages = await collect(paginator.pages());
    expect(pages).toEqual([threeTokenPages[""], threeTokenPages.t2, threeTokenPages.t3]);
  });

  it("toArray(limit) stops fetching once it has enough", async () => {
    const { paginator, calls } = offsetApi(100, 3);
    expect(await paginator.toArray(4)).toEqual([0, 1, 2, 3]);
    expect(calls).toEqual([0, 3]);
  });

  it("toArray(0) makes no request and bad limits throw", async () => {
    const { paginator, calls } = offsetApi(100, 3);
    expect(await paginator.toArray(0)).toEqual([]);
    expect(calls).toEqual([]);
    await expect(paginator.toArray(-1)).rejects.toThrow(RangeError);
    await expect(paginator.toArray(1.5)).rejects.toThrow(RangeError);
  });

  it("starts over on each iteration", async () => {
    const { paginator, calls } = offsetApi(4, 3);
    expect(await paginator.toArray()).toEqual([0, 1, 2, 3]);
    expect(await paginator.toArray()).toEqual([0, 1, 2, 3]);
    expect(calls).toEqual([0, 3, 0, 3]);
  });

  it("stops when the server repeats a cursor", async () => {
    const { paginator, calls } = tokenApi({
      "": { inboxes: [{ inbox_id: "a" }], next_page_token: "t2" },
      t2: { inboxes: [{ inbox_id: "b" }], next_page_token: "t2" },
    });
    expect((await paginator.toArray()).map((inbox) => inbox.inbox_id)).toEqual(["a", "b"]);
    expect(calls).toEqual([undefined, "t2"]);
  });

  it("stops when the server loops back to an earlier cursor", async () => {
    const { paginator, calls } = tokenApi({
      "": { inboxes: [], next_page_token: "t2" },
      t2: { inboxes: [{ inbox_id: "b" }], next_page_token: "t3" },
      t3: { inboxes: [{ inbox_id: "c" }], next_page_token: "t2" },
    });
    expect(await paginator.toArray()).toHaveLength(2);
    expect(calls).toEqual([undefined, "t2", "t3"]);
  });

  it("passes fetch errors through", async () => {
    const { paginator } = tokenApi({ "": { inboxes: [{ inbox_id: "a" }], next_page_token: "missing" } });
    await expect(paginator.toArray()).rejects.toThrow("unknown token missing");
  });
});
