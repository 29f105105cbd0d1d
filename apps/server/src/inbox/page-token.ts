import type { KeyObject } from "node:crypto";
import { createCipheriv, createDecipheriv, createHmac, createSecretKey, hkdfSync } from "node:crypto";
import { LRUCache } from "lru-cache";
import type { ListPosition } from "../storage/inbox/paging.ts";
import { InboxProblem } from "./inbox-errors.ts";

/** A position in a newest-first list: the last item of the previous page. */
export type PageCursor = ListPosition;

const IV_BYTES = 12;
/** Issued tokens remembered at once (a few hundred bytes each). */
const ISSUED_TOKENS_KEPT = 1000;
const TAG_BYTES = 16;

const subkey = (secret: Buffer, purpose: string): KeyObject =>
  createSecretKey(Buffer.from(hkdfSync("sha256", secret, Buffer.alloc(0), `pigeonhole page token ${purpose}`, 32)));

/**
 * Opaque, tamper-proof page tokens for keyset paging on `(created_at, seq)`. The cursor is encrypted (AES-256-GCM)
 * with a secret kept in the database, so tokens survive restarts, and bound to the list it came from (its scope, such
 * as the inbox whose messages are listed) as authenticated data, so a token from elsewhere is refused. Encrypted,
 * not only signed: `seq` numbers rows across every pod, and differences between a pod's own cursors would tell it
 * how much the other pods stored in between. The nonce is derived from the scope and cursor, so the same page always
 * gets the same token.
 */
export class PageTokens {
  // Key objects made once: handing the ciphers raw bytes makes them import them anew on every token.
  readonly #encryption: KeyObject;
  readonly #nonces: KeyObject;
  // Tokens issued lately, by scope and cursor. Sealing one costs an HMAC and a cipher (about a tenth of the CPU of
  // listing 20 inboxes), and a client that polls a list asks for the same page again and again; since the nonce is
  // derived from the scope and the cursor, a token kept here is the very token sealing would make again.
  readonly #issued = new LRUCache<string, string>({ max: ISSUED_TOKENS_KEPT });

  constructor(secret: Buffer) {
    this.#encryption = subkey(secret, "encryption");
    this.#nonces = subkey(secret, "nonce");
  }

  issue(scope: string, cursor: PageCursor): string {
    const key = JSON.stringify([scope, cursor.createdAt, cursor.seq]);
    let token = this.#issued.get(key);
    if (token === undefined) {
      token = this.#seal(scope, cursor);
      this.#issued.set(key, token);
    }
    return token;
  }

  #seal(scope: string, cursor: PageCursor): string {
    const plaintext = Buffer.from(JSON.stringify([cursor.createdAt, cursor.seq]));
    const iv = createHmac("sha256", this.#nonces).update(`${scope}\n`).update(plaintext).digest().subarray(0, IV_BYTES);
    const cipher = createCipheriv("aes-256-gcm", this.#encryption, iv).setAAD(Buffer.from(scope));
    const sealed = Buffer.concat([iv, cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
    return sealed.toString("base64url");
  }

  /** The cursor of a token issued for this scope; a 400 `INVALID_PAGE_TOKEN` for anything else. */
  read(scope: string, token: string): PageCursor {
    const cursor = this.#open(scope, token);
    if (cursor) {
      return cursor;
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

  #open(scope: string, token: string): PageCursor | null {
    const sealed = Buffer.from(token, "base64url");
    if (sealed.length <= IV_BYTES + TAG_BYTES || sealed.toString("base64url") !== token) {
      return null;
    }
    const decipher = createDecipheriv("aes-256-gcm", this.#encryption, sealed.subarray(0, IV_BYTES))
      .setAAD(Buffer.from(scope))
      .setAuthTag(sealed.subarray(-TAG_BYTES));
    let plaintext: string;
    try {
      plaintext = Buffer.concat([decipher.update(sealed.subarray(IV_BYTES, -TAG_BYTES)), decipher.final()]).toString();
    } catch {
      return null;
    }
    const [createdAt, seq] = JSON.parse(plaintext) as [string, number];
    return { createdAt, seq };
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
