/**
 * The public id of an API key: `key_` and the first 16 hex digits of the key's SHA-256. It names a key in listings
 * and logs without revealing it, and anyone holding the key can compute it. Migration 0010 gives existing keys the
 * same id, in SQL.
 */
export const keyIdOf = (keyHash: string): string => `key_${keyHash.slice(0, 16)}`;

/** What a key id looks like, to tell it from a key on the command line. */
export const KEY_ID = /^key_[0-9a-f]{16}$/;
