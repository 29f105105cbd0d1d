// Placeholders inside generated values, filled in when the request is sent: ids from earlier answers, and numbers
// whose exact digits JSON.stringify cannot write.

/** "One of the ids seen so far under `key`", chosen by `pick`. */
export class PoolReference {
  readonly key: string;
  readonly pick: number;
  readonly owner: "own" | "foreign";

  constructor(key: string, pick: number, owner: "own" | "foreign") {
    this.key = key;
    this.pick = pick;
    this.owner = owner;
  }
}

/** A JSON number written exactly as `text` (such as `1e400` or `9223372036854775808`). */
export class NumberLiteral {
  readonly text: string;

  constructor(text: string) {
    this.text = text;
  }
}

/** Replaces every PoolReference with an id (or drops it to a plain string when none is known yet). */
export function fillReferences(value: unknown, lookup: (reference: PoolReference) => string): unknown {
  if (value instanceof PoolReference) {
    return lookup(value);
  }
  if (Array.isArray(value)) {
    return value.map((item) => fillReferences(item, lookup));
  }
  if (value !== null && typeof value === "object" && !(value instanceof NumberLiteral)) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, fillReferences(item, lookup)]));
  }
  return value;
}

const LITERAL_MARK = "\u0000number:";

/** JSON text of a value that may hold NumberLiterals. */
export function toJsonText(value: unknown): string {
  const text = JSON.stringify(value, (_key, item: unknown) =>
    item instanceof NumberLiteral ? `${LITERAL_MARK}${item.text}` : item,
  );
  return text.replace(/"\\u0000number:([^"]*)"/g, "$1");
}

/** The value as a query or path text. */
export function toParameterText(value: unknown): string {
  if (typeof value === "string") {
    return value;
  }
  if (value instanceof NumberLiteral) {
    return value.text;
  }
  return typeof value === "number" || typeof value === "boolean" ? String(value) : toJsonText(value);
}
