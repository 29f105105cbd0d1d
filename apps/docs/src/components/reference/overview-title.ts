import type { ReferenceSpec } from "../../lib/reference-specs.ts";

/** The parts of a parsed spec an overview's title is made of. */
export interface TaggedDocument {
  tags?: readonly { name: string }[];
}

/** The slug starlight-openapi gives a tag's overview page (`Messages` -> `messages`). */
export function tagSlug(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/\s+/g, "-")
    .replace(/[^a-z0-9_-]/g, "");
}

/**
 * The title of an API's overview (`/reference/inbox/`: "Inbox API") or of one of its tags' overviews
 * (`/reference/inbox/operations/tags/messages/`: "Inbox API: Messages"), which the renderer all calls "Overview";
 * undefined for any other page.
 */
export function overviewTitle(
  pathname: string,
  specs: readonly Pick<ReferenceSpec, "base" | "label">[],
  documentOf: (base: string) => TaggedDocument | undefined,
): string | undefined {
  const path = pathname.replace(/^\/+|\/+$/g, "");
  for (const spec of specs) {
    if (path === spec.base) {
      return spec.label;
    }
    const tagsPrefix = `${spec.base}/operations/tags/`;
    if (path.startsWith(tagsPrefix)) {
      const slug = path.slice(tagsPrefix.length);
      const tag = documentOf(spec.base)?.tags?.find((candidate) => tagSlug(candidate.name) === slug);
      return tag ? `${spec.label}: ${tag.name}` : undefined;
    }
  }
  return undefined;
}
