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

const isNested = (value: unknown) => value !== null && typeof value === "object";

/**
 * Ids compare as the services compare them: addresses and domains (an allow or block list's entry) without regard to
 * case or surrounding spaces.
 */
const identity = (id: string) => (id.includes("@") || id.includes(".") ? id.trim().toLowerCase() : id);

/** An id as filed: the name it goes by, and the id. */
export interface FiledId {
  key: string;
  id: string;
}

/**
 * Every id seen in real answers, by the name a path parameter or body field gives it (`inbox_id`, `post_id`, ...),
 * split between the fuzzing tenant's own ids and another tenant's. Deleted ids move to `gone`, with the ids created
 * under them. An `id` inside an object found under `post` or `posts` is filed as a `post_id`, and a `name` under
 * `community` as a `community_name`; `next_page_token` is filed as a `page_token`.
 */
export class IdPool {
  /**
   * Fields filed under their own name although it does not end in `_id`: path parameters that name a resource by a
   * field of its own (a list entry's `entry`, a download's `token`).
   */
  readonly #namedKeys: ReadonlySet<string>;
  readonly #ids: Record<Owner, Map<string, string[]>> = { own: new Map(), foreign: new Map() };
  readonly #gone: FiledId[] = [];
  /** For an id removed because its parent was deleted, that parent. */
  readonly #removedWith = new Map<string, string>();
  readonly #known = new Set<string>();
  /** Per key (`post_id`, `community_name`), the ids filed under it: an agent and a community may share a name. */
  readonly #filed = new Map<string, Set<string>>();
  /** Ids that appeared in one object together (a message's inbox_id, thread_id and message_id). */
  readonly #records: Map<string, string>[] = [];
  /** The ids created under another (a post's comments), which go when it goes. */
  readonly #children = new Map<string, FiledId[]>();

  constructor(namedKeys: Iterable<string> = []) {
    this.#namedKeys = new Set(namedKeys);
  }

  /**
   * Files every id of an answer and answers those it had not seen. `context` holds the ids the request named (its
   * path parameters): they belong with the ids at the answer's top level, so that a message sent from an inbox is
   * later read from that inbox.
   */
  harvest(answer: unknown, owner: Owner, context: Record<string, string> = {}): FiledId[] {
    const filed: FiledId[] = [];
    const visit = (node: unknown, parentKey: string | null, record: Map<string, string>) => {
      if (Array.isArray(node)) {
        for (const item of node) {
          if (typeof item === "string" && parentKey?.endsWith("_ids")) {
            this.add(parentKey.slice(0, -1), item, owner);
          } else {
            visit(item, parentKey, new Map(record));
          }
        }
        return;
      }
      if (node === null || typeof node !== "object") {
        return;
      }
      // Ids first, then what is nested: an object inside this one (a message's attachment, a thread's message) is filed
      // along with this one's ids, so that it is later named with them.
      const entries = Object.entries(node).sort(([, a], [, b]) => Number(isNested(a)) - Number(isNested(b)));
      for (const [key, value] of entries) {
        if (key.startsWith("next_") && (typeof value === "string" || typeof value === "number")) {
          // `next_page_token` and `next_offset` are what `page_token` and `offset` take next.
          this.add(key.slice("next_".length), String(value), owner);
        } else if (typeof value === "string") {
          const idKey =
            key.endsWith("_id") || this.#namedKeys.has(key)
              ? key
              : (key === "id" || key === "name") && parentKey !== null
                ? `${singular(parentKey)}_${key}`
                : null;
          if (idKey !== null) {
            if (this.add(idKey, value, owner)) {
              filed.push({ key: idKey, id: value });
            }
            record.set(idKey, value);
          }
        } else {
          visit(value, key, new Map(record));
        }
      }
      if (record.size > 1) {
        this.#records.push(record);
      }
    };
    visit(answer, null, new Map(Object.entries(context)));
    return filed;
  }

  /**
   * Files names a request sent, which its success made true, together with the ids its path named: the agent a
   * community's moderator was made, so that removing a moderator of that community names one.
   */
  relate(names: Record<string, string>, owner: Owner, context: Record<string, string>): void {
    const record = new Map(Object.entries(context));
    for (const [key, name] of Object.entries(names)) {
      this.add(key, name, owner);
      record.set(key, name);
    }
    if (record.size > 1) {
      this.#records.push(record);
    }
  }

  /** Files `children` as created under `parent`: removing `parent` removes them as well. */
  adopt(parent: string, children: FiledId[]): void {
    if (children.length > 0) {
      this.#children.set(parent, [...(this.#children.get(parent) ?? []), ...children]);
    }
  }

  /**
   * Like `resolve`, but prefers an id that appeared together with the ids already chosen for the same request (a
   * thread of the chosen inbox rather than of any inbox).
   */
  resolveAlong(reference: PoolReference, chosen: Record<string, string>, withParents = false): string | undefined {
    if (withParents && Object.keys(chosen).length === 0) {
      const live = this.#withLiveParents(reference);
      if (live.length > 0) {
        return live[reference.pick % live.length];
      }
    }
    const together = this.#records.filter(
      (record) =>
        record.has(reference.key) &&
        Object.entries(chosen).some(([key, value]) => record.get(key) === value) &&
        Object.entries(chosen).every(([key, value]) => !record.has(key) || record.get(key) === value),
    );
    // The records that share the most chosen ids: an attachment's own copy of a message, not another inbox's copy.
    const shared = (record: Map<string, string>) =>
      Object.entries(chosen).filter(([key, value]) => record.get(key) === value).length;
    const most = Math.max(0, ...together.map(shared));
    const candidates = [
      ...new Set(together.filter((record) => shared(record) === most).map((record) => record.get(reference.key) ?? "")),
    ].filter((id) => this.ownerOf(id) === reference.owner);
    return candidates.length === 0 ? this.resolve(reference) : candidates[reference.pick % candidates.length];
  }

  /**
   * A value of `key` that appeared together with every id chosen so far, whoever's it is: the word choosing the
   * collection (`send`, `block`) an entry was created in, so that the entry is named where it lives.
   */
  seenWith(key: string, chosen: Record<string, string>, pick: number): string | undefined {
    const chosenEntries = Object.entries(chosen);
    if (chosenEntries.length === 0) {
      return undefined;
    }
    const values = [
      ...new Set(
        this.#records
          .filter((record) => chosenEntries.every(([name, value]) => record.get(name) === value))
          .map((record) => record.get(key))
          .filter((value) => value !== undefined),
      ),
    ];
    return values.length === 0 ? undefined : values[pick % values.length];
  }

  /**
   * The parent whose deletion removed `id`, if that is how it went: the id may live on under another parent (a
   * received copy of a message keeps the sender's Message-ID), so it is gone only when named with that parent.
   */
  removedWith(id: string): string | undefined {
    return this.#removedWith.get(id);
  }

  /**
   * Whether `child` was also seen under another live parent of the same kind: a message sent from a deleted inbox
   * keeps its id in the hosted inbox that received a copy.
   */
  #heldElsewhere(child: FiledId, parentKey: string, parentId: string): boolean {
    return this.#records.some((record) => {
      const parent = record.get(parentKey);
      return (
        record.get(child.key) === child.id &&
        parent !== undefined &&
        parent !== parentId &&
        this.ownerOf(parent) === "own"
      );
    });
  }

  /**
   * Ids under `reference.key` that appeared together with other ids, all still the owner's: an id whose parents are
   * deleted (a delivery of a deleted webhook) would be drawn with another parent and never be found.
   */
  #withLiveParents(reference: PoolReference): string[] {
    const live = new Set<string>();
    for (const record of this.#records) {
      const id = record.get(reference.key);
      if (id === undefined || this.ownerOf(id) !== reference.owner) {
        continue;
      }
      if ([...record].every(([key, value]) => key === reference.key || this.ownerOf(value) === reference.owner)) {
        live.add(id);
      }
    }
    return [...live];
  }

  /**
   * Files an id under `key`, unless it is filed there already; answers whether it was new. A deleted id that an
   * answer names again was made again (a deleted inbox's address is free to create anew), so it is live once more.
   */
  add(key: string, id: string, owner: Owner): boolean {
    const filed = this.#filed.get(key) ?? new Set<string>();
    const revived = this.#gone.findIndex((gone) => gone.key === key && identity(gone.id) === identity(id));
    if (revived >= 0 && owner === "own") {
      this.#gone.splice(revived, 1);
      this.#ids.own.set(key, [...(this.#ids.own.get(key) ?? []), id]);
      return true;
    }
    if (filed.has(identity(id))) {
      return false;
    }
    filed.add(identity(id));
    this.#filed.set(key, filed);
    this.#known.add(identity(id));
    const list = this.#ids[owner].get(key) ?? [];
    list.push(id);
    this.#ids[owner].set(key, list);
    return true;
  }

  /**
   * The id a reference names, or undefined when no id of that kind has been seen. A query parameter that takes a
   * name (`community`) draws from the names filed under it (`community_name`).
   */
  resolve(reference: PoolReference): string | undefined {
    const ids = this.#ids[reference.owner];
    const list = ids.get(reference.key) ?? ids.get(`${reference.key}_name`) ?? [];
    return list.length === 0 ? undefined : list[reference.pick % list.length];
  }

  /** A deleted id, chosen by `pick`: one that was filed under `key` when there is one. */
  gone(pick: number, key: string): string | undefined {
    // A deleted id of the kind the parameter takes (a deleted comment to delete again) when there is one.
    const same = this.#gone.filter((gone) => gone.key === key);
    const candidates = same.length > 0 ? same : this.#gone;
    return candidates.length === 0 ? undefined : candidates[pick % candidates.length]?.id;
  }

  /** Whether an id was ever seen in an answer (live, deleted, or another tenant's). */
  isKnown(id: string): boolean {
    return this.#known.has(identity(id));
  }

  ownerOf(id: string): Owner | "gone" | undefined {
    if (this.#gone.some((gone) => gone.id === id)) {
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

  /**
   * Files an id as deleted, with the ids created under it: no longer drawn as live ids, drawn instead to check that
   * they are gone.
   */
  remove(key: string, id: string): void {
    const list = this.#ids.own.get(key);
    const index = list?.indexOf(id) ?? -1;
    if (list && index >= 0) {
      list.splice(index, 1);
      this.#gone.push({ key, id });
      for (const child of this.#children.get(id) ?? []) {
        if (!this.#heldElsewhere(child, key, id)) {
          this.remove(child.key, child.id);
          this.#removedWith.set(child.id, id);
        }
      }
    }
  }
}
