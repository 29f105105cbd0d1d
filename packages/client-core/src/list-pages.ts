import { PigeonholeError } from "./errors.js";

/** A page of a token-paged list: send `next_page_token` back as `page_token` until it is null. */
export interface TokenPage {
  next_page_token: string | null;
}

/** A page of an offset-paged list: send `next_offset` back as `offset` while `has_more` is true. */
export interface OffsetPage {
  has_more: boolean;
  next_offset: number;
}

/** How a service pages its lists: the query parameter that takes the cursor, and the cursor of the next page. */
export interface PageCursor<TPage> {
  param: string;
  next(page: TPage): string | number | null;
}

export const tokenCursor: PageCursor<TokenPage> = {
  param: "page_token",
  next: (page) => page.next_page_token,
};

export const offsetCursor: PageCursor<OffsetPage> = {
  param: "offset",
  next: (page) => (page.has_more ? page.next_offset : null),
};

/**
 * The items of a list page: the value of its one array property (`inboxes`, `messages`, `posts`, ...). The types
 * only admit pages with exactly one, so finding another count means the response does not match the spec.
 */
export function pageItems<TItem>(page: unknown): TItem[] {
  const lists = Object.values(page ?? {}).filter(Array.isArray);
  if (lists.length !== 1) {
    throw new PigeonholeError("A list page must hold exactly one array of items; this response does not.");
  }
  return lists[0] as TItem[];
}
