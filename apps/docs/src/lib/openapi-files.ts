import type { ReferenceSpec } from "./reference-specs.ts";

/**
 * Where the site serves an API's bundled OpenAPI document, for readers and tools to download: one JSON file per API
 * (`/openapi/inbox.json`), exactly the bundle its spec package builds.
 */
export function openAPIFileRoute(spec: Pick<ReferenceSpec, "api">): string {
  return `/openapi/${spec.api}.json`;
}

/** The line the overview page of an API's reference adds to the spec's description, linking to that file. */
export function openAPIDownloadLine(spec: Pick<ReferenceSpec, "api" | "label">): string {
  const route = openAPIFileRoute(spec);
  return `The ${spec.label}'s OpenAPI 3.1 document, bundled in one file: [${route.slice(1)}](${route}).`;
}
