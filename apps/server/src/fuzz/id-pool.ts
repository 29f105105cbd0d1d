import type { PoolReference } from "./draft-values.ts";

export type Owner = "own" | "foreign";

const singular = (plural: string): string =>
  plural.endsWith("ies")
    ? `${plural.slice(0, -3)}y`
    : /(?:x|ss|ch|sh)es$/.test(plural)
      ? plural.slice(0, -2)
      : plural.endsWith("s")
        ? plural.slice(0, -1)
        : plural;

/** Ids compare as the services compare them: addresses without regard to case. */
const identity = (id: string) => (id.includes("@") ? id.toLowerCase() : id);

/**
 * Every id seen in real answers, by the name a path parameter or body field gives it (`inbox_id`, `post_id`, ...),
 * split between the fuzzing tenant's own ids and another tenant's. Deleted ids move to `gone`. An `id` inside an
 * object found under `post` or `posts` is filed as a `post_id`; `next_page_token` is filed as a `page_token`.
 */
export class IdPool {
  readonly #ids: Record<Owner, Map<string, string[]>> = { own: new Map(), foreign: new Map() };
  readonly #gone: string[] = [];
  readonly #known = new Set<string>();
  /** Ids that appeared in one object together (a message's inbox_id, thread_id and message_id). */
  readonly #records: Map<string, string>[] = [];

  /**
   * Files every id of an answer. `context` holds the ids the request named (its path parameters): they belong with
   * the ids at the answer's top level, so that a message sent from an inbox is later read from that inbox.
   */
  harvest(answer: unknown, owner: Owner, context: Record<string, string> = {}): void {
    const visit = (node: unknown, parentKey: string | null, record: Map<string, string>) => {
      if (Array.isArray(node)) {
        for (const item of node) {
          if (typeof item === "string" && parentKey?.endsWith("_ids")) {
            this.add(parentKey.slice(0, -1), item, owner);
          } else {
            visit(item, parentKey, new Map());
          }
        }
        return;
      }
      if (node === null || typeof node !== "object") {
        return;
      }
      for (const [key, value] of Object.entries(node)) {
        if (key.startsWith("next_") && (typeof value === "string" || typeof value === "number")) {
          // `next_page_token` and `next_offset` are what `page_token` and `offset` take next.
          this.add(key.slice("next_".length), String(value), owner);
        } else if (typeof value === "string") {
          const idKey = key.endsWith("_id")
            ? key
            : key === "id" && parentKey !== null
              ? `${singular(parentKey)}_id`
              : null;
          if (idKey !== null) {
            this.add(idKey, value, owner);
            record.set(idKey, value);
          }
        } else {
          visit(value, key, new Map());
        }
      }
      if (record.size > 1) {
        this.#records.push(record);
      }
    };
    visit(answer, null, new Map(Object.entries(context)));
  }

  /**
   * Like `resolve`, but prefers an id that appeared together with the ids already chosen for the same request (a
   * thread of the chosen inbox rather than of any inbox).
   */
  resolveAlong(reference: PoolReference, chosen: Record<string, string>): string | undefined {
    const together = this.#records.filter(
      (record) =>
        record.has(reference.key) &&
        Object.entries(chosen).some(([key, value]) => record.get(key) === value) &&
        Object.entries(chosen).every(([key, value]) => !record.has(key) || record.get(key) === value),
    );
    const candidates = [...new Set(together.map((record) => record.get(reference.key) ?? ""))].filter(
      (id) => this.ownerOf(id) === reference.owner,
    );
    return candidates.length === 0 ? this.resolve(reference) : candidates[reference.pick % candidates.length];
  }

  add(key: string, id: string, owner: Owner): void {
    if (this.#known.has(identity(id))) {
      return;
    }
    this.#known.add(identity(id));
    const list = this.#ids[owner].get(key) ?? [];
    list.push(id);
    this.#ids[owner].set(key, list);
  }

  /** The id a reference names, or undefined when no id of that kind has been seen. */
  resolve(reference: PoolReference): string | undefined {
    const list = this.#ids[reference.owner].get(reference.key) ?? [];
    return list.length === 0 ? undefined : list[reference.pick % list.length];
  }

  /** A deleted id, chosen by `pick`. */
  gone(pick: number): string | undefined {
    return this.#gone.length === 0 ? undefined : this.#gone[pick % this.#gone.length];
  }

  /** Whether an id was ever seen in an answer (live, deleted, or another tenant's). */
  isKnown(id: string): boolean {
    return this.#known.has(identity(id));
  }

  ownerOf(id: string): Owner | "gone" | undefined {
    if (this.#gone.includes(id)) {
      return "gone";
    }
    for (const owner of ["own", "foreign"] as const) {
      for (const list of this.#ids[owner].values()) {
        if (list.some((known) => identity(known) === identity(id))) {
          return owner;
        }
      }
    }
    return undefined;
  }

  /** Files an id as deleted: no longer drawn as a live id, drawn instead to check that it is gone. */
  remove(key: string, id: string): void {
    const list = this.#ids.own.get(key);
    const index = list?.indexOf(id) ?? -1;
    if (list && index >= 0) {
      list.splice(index, 1);
      this.#gone.push(id);
    }
  }
}
