import { createHash, randomFillSync, randomUUID } from "node:crypto";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const LOWER_ALPHANUMERIC = "0123456789abcdefghijklmnopqrstuvwxyz";

// Random bytes are drawn from a pool refilled 4 KiB at a time: one call into the system's generator per many ids
// rather than one per id. Each byte is used once.
const pool = Buffer.alloc(4096);
let poolOffset = pool.length;

function randomByte(): number {
  if (poolOffset === pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  return pool[poolOffset++] as number;
}

/** A random string over `alphabet`; rejection sampling keeps every character equally likely. */
function randomString(alphabet: string, length: number): string {
  const usable = 256 - (256 % alphabet.length);
  let out = "";
  while (out.length < length) {
    const byte = randomByte();
    if (byte < usable) {
      out += alphabet[byte % alphabet.length];
    }
  }
  return out;
}

/** A random string of base-62 characters, for ids such as `wh_...` and `thd_...`. */
export const randomBase62 = (length: number): string => randomString(BASE62, length);

/** A random string of lowercase letters and digits, for generated inbox usernames. */
export const randomLowerAlphanumeric = (length: number): string => randomString(LOWER_ALPHANUMERIC, length);

export const newUuid = (): string => randomUUID();

export const sha256Hex = (value: string | Uint8Array): string => createHash("sha256").update(value).digest("hex");
