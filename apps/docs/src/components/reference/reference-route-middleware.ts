// Runs for every page before it renders: gives the reference's overview pages their own titles and makes the parsed
// specs the reference is rendered from read well (see readable-schemas.ts).

import schemas from "virtual:starlight-openapi/schemas";
import { defineRouteMiddleware, type StarlightRouteData } from "@astrojs/starlight/route-data";
import { REFERENCE_SPECS } from "../../lib/reference-specs.ts";
import { overviewTitle, type TaggedDocument } from "./overview-title.ts";
import { makeDocumentReadable } from "./readable-schemas.ts";

export const onRequest = defineRouteMiddleware((context) => {
  for (const schema of Object.values(schemas)) {
    makeDocumentReadable(schema.document);
  }

  // Starlight adds `starlightRoute` to Astro's locals in a global declaration this program does not load.
  const route = (context.locals as { starlightRoute: StarlightRouteData }).starlightRoute;
  const title = overviewTitle(
    context.url.pathname,
    REFERENCE_SPECS,
    (base) => schemas[base]?.document as TaggedDocument | undefined,
  );
  if (title === undefined) {
    return;
  }
  const previous = route.entry.data.title;
  route.entry.data.title = title;
  for (const entry of route.head) {
    if (entry.tag === "title" && typeof entry.content === "string" && entry.content.startsWith(previous)) {
      entry.content = title + entry.content.slice(previous.length);
    }
    if (entry.tag === "meta" && entry.attrs?.property === "og:title") {
      entry.attrs.content = title;
    }
  }
});
