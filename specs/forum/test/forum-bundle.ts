// The forum bundle, loaded once for the statement tests, and the lookups they share.

import { isObject, type Json, loadBundle } from "@pigeonhole/spec-testing/bundle";

export const bundle = loadBundle(new URL("../dist/openapi.json", import.meta.url));

export const DEFAULT_COMMUNITY_ID = "00000000-0000-4000-8000-000000000001";

/** The overview (`info.description`), where statements about the whole API are written once. */
export const infoText = bundle.str(bundle.spec, "info", "description");

/** The error codes used in the examples of a shared error response. */
export function exampleCodes(responseName: string): string[] {
  return bundle
    .exampleValues(bundle.obj(bundle.spec, "components", "responses", responseName))
    .map((value) => bundle.str(value, "code"));
}

/** Every string value found anywhere under `node` for the key `key`. */
export function collect(node: Json, key: string, found: string[] = []): string[] {
  if (Array.isArray(node)) {
    for (const item of node) {
      collect(item, key, found);
    }
  } else if (isObject(node)) {
    for (const [name, value] of Object.entries(node)) {
      if (name === key && typeof value === "string") {
        found.push(value);
      }
      collect(value, key, found);
    }
  }
  return found;
}
