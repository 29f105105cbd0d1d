import type { Clock } from "../clock.ts";
import { sha256Hex } from "../ids.ts";

/** How long a key found in the database is taken on trust: a revoked key is refused by every instance after this. */
export const KNOWN_KEY_TTL_MS = 1_000;

interface KnownKey<Holder> {
  holder: Holder;
  /** When the lookup that found it started: nothing read before that moment can be newer. */
  checkedAtMs: number;
}

/**
 * The keys this instance found in the database recently, by the key as presented, so that a request with a known
 * key costs a map lookup rather than a hash and a query. An entry is trusted for {@link KNOWN_KEY_TTL_MS} of the
 * server's clock: a key revoked elsewhere (another instance, the CLI) is looked up again and refused within it.
 * Unknown keys are never kept, so a flood of wrong keys grows nothing; concurrent lookups of one key share one query.
 */
export class KnownKeys<Holder> {
  readonly #clock: Clock;
  readonly #find: (keyHash: string) => Promise<Holder | null>;
  readonly #known = new Map<string, KnownKey<Holder>>();
  readonly #lookups = new Map<string, Promise<Holder | null>>();

  constructor(clock: Clock, find: (keyHash: string) => Promise<Holder | null>) {
    this.#clock = clock;
    this.#find = find;
  }

  get(key: string): Promise<Holder | null> | Holder {
    const now = this.#clock.now();
    const known = this.#known.get(key);
    // A clock set back (test control) must not extend the trust either.
    if (known && now - known.checkedAtMs < KNOWN_KEY_TTL_MS && now >= known.checkedAtMs) {
      return known.holder;
    }
    return this.#lookups.get(key) ?? this.#lookUp(key, now);
  }

  /** Forgets every key, so that the next request with any of them is looked up (after a revocation here). */
  clear(): void {
    this.#known.clear();
  }

  #lookUp(key: string, checkedAtMs: number): Promise<Holder | null> {
    const lookup = this.#find(sha256Hex(key))
      .then((holder) => {
        if (holder) {
          this.#known.set(key, { holder, checkedAtMs });
        } else {
          this.#known.delete(key);
        }
        return holder;
      })
      .finally(() => this.#lookups.delete(key));
    this.#lookups.set(key, lookup);
    return lookup;
  }
}
