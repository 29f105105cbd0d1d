import type { KeyObject } from "node:crypto";
import { createHmac, createSecretKey, timingSafeEqual } from "node:crypto";
import type { ListPosition } from "../storage/inbox/paging.ts";
import { InboxProblem } from "./inbox-errors.ts";

/** A position in a newest-first list: the last item of the previous page. */
export type PageCursor = ListPosition;

/**
 * Opaque, tamper-proof page tokens for keyset paging on `(created_at, seq)`. A token is bound to the list it came
 * from (its scope, such as the inbox whose messages are listed) by an HMAC with a secret kept in the database, so
 * tokens survive restarts and a token from elsewhere is refused.
 */
export class PageTokens {
  // A key object made once: handing createHmac the raw bytes makes it import them anew on every token.
  readonly #secret: KeyObject;

  constructor(secret: Buffer) {
    this.#secret = createSecretKey(secret);
  }

  #mac(scope: string, payload: string): Buffer {
    return createHmac("sha256", this.#secret).update(`${scope}\n${payload}`).digest().subarray(0, 16);
  }

  issue(scope: string, cursor: PageCursor): string {
    const payload = Buffer.from(JSON.stringify([cursor.createdAt, cursor.seq])).toString("base64url");
    return `${payload}.${this.#mac(scope, payload).toString("base64url")}`;
  }

  /** The cursor of a token issued for this scope; a 400 `INVALID_PAGE_TOKEN` for anything else. */
  read(scope: string, token: string): PageCursor {
    const [payload, mac, extra] = token.split(".");
    if (payload && mac && extra === undefined) {
      const expected = this.#mac(scope, payload);
      const given = Buffer.from(mac, "base64url");
      if (given.length === expected.length && timingSafeEqual(given, expected)) {
        const [createdAt, seq] = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as [string, number];
        return { createdAt, seq };
      }
    }
    throw new InboxProblem(
      400,
      "INVALID_PAGE_TOKEN",
      "page_token: unknown page token; restart pagination by omitting page_token.",
      {
        field: "page_token",
        hint: "Send back the next_page_token of the previous page unchanged, or omit page_token for the first page.",
      },
    );
  }
}

/** One page of a newest-first list, fetched with one extra row to learn whether another page follows. */
export function toPage<Row extends { position: PageCursor }>(
  rows: Row[],
  limit: number,
  tokens: PageTokens,
  scope: string,
): { rows: Row[]; nextPageToken: string | null } {
  const pageRows = rows.slice(0, limit);
  const last = pageRows.at(-1);
  return {
    rows: pageRows,
    nextPageToken: rows.length > limit && last ? tokens.issue(scope, last.position) : null,
  };
}
