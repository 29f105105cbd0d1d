import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { StarlightPlugin, StarlightUserConfig } from "@astrojs/starlight/types";
import { addSourceLines, type FullTextPage, type IndexSection, readMeta, renderIndexSections } from "./llms-index.ts";
import { renderReferenceOperations, renderReferenceSection } from "./llms-reference.ts";
import { openAPIFileRoute } from "./openapi-files.ts";
import { readBundle } from "./prepare-site.ts";
import { REFERENCE_SPECS } from "./reference-specs.ts";
import { absoluteUrl } from "./site-address.ts";

// `llms.txt` and `llms-full.txt`. starlight-llms-txt writes both from the docs collection (the guides rendered to
// Markdown, examples included); the API reference pages are not in that collection, so once the site is built this
// adds what it leaves out: in `llms.txt` a list of every page with its absolute URL, in `llms-full.txt` each page's
// URL and the text of every operation, read from the bundles.

/** The sidebar's groups of pages named by slug, in reading order (the reference groups are added apart). */
function sidebarGroups(sidebar: StarlightUserConfig["sidebar"]): { label: string; slugs: string[] }[] {
  const groups: { label: string; slugs: string[] }[] = [];
  for (const group of sidebar ?? []) {
    if (typeof group === "object" && "label" in group && "items" in group && Array.isArray(group.items)) {
      const slugs = group.items.flatMap((item) =>
        typeof item === "string" ? [item] : typeof item === "object" && "slug" in item ? [item.slug] : [],
      );
      if (slugs.length > 0) {
        groups.push({ label: group.label, slugs });
      }
    }
  }
  return groups;
}

/** The title and description of a built page, from its meta tags. */
async function readPage(dist: string, route: string): Promise<FullTextPage> {
  const html = await readFile(join(dist, route, "index.html"), "utf8");
  const title = readMeta(html, "og:title");
  if (title === undefined) {
    throw new Error(`The built page ${route} has no title.`);
  }
  return { title, description: readMeta(html, "description"), url: absoluteUrl(route) };
}

async function appendToFile(path: string, text: string): Promise<void> {
  const current = await readFile(path, "utf8");
  await writeFile(path, `${current.trimEnd()}\n\n${text.trim()}\n`);
}

async function completeLlmsFiles(dist: string, sidebar: StarlightUserConfig["sidebar"]): Promise<void> {
  const sections: IndexSection[] = [];
  const collectionPages: FullTextPage[] = [await readPage(dist, "/")];
  for (const group of sidebarGroups(sidebar)) {
    const pages = await Promise.all(group.slugs.map((slug) => readPage(dist, `/${slug}/`)));
    collectionPages.push(...pages);
    sections.push({
      heading: group.label,
      links: pages.map(({ title, url, description }) => ({ title, url, note: description })),
    });
  }

  const references: string[] = [];
  for (const spec of REFERENCE_SPECS) {
    const bundle = await readBundle(spec);
    const operations = renderReferenceOperations(spec, bundle);
    for (const { route } of operations) {
      await readFile(join(dist, route, "index.html")).catch(() => {
        throw new Error(`The reference has no page at ${route}.`);
      });
    }
    sections.push({
      heading: `${spec.label} reference`,
      links: [
        {
          title: "Overview",
          url: absoluteUrl(`/${spec.base}/`),
          note: "what the API is, authentication, errors and limits",
        },
        {
          title: "OpenAPI document",
          url: absoluteUrl(openAPIFileRoute(spec)),
          note: "the bundled OpenAPI 3.1 file, every schema",
        },
        ...operations.map(({ summary, route, address }) => ({
          title: summary,
          url: absoluteUrl(route),
          note: `\`${address}\``,
        })),
      ],
    });
    references.push(renderReferenceSection(spec, bundle));
  }

  const changelogs = (await readdir(join(dist, "changelog"))).sort();
  const changelogPages = await Promise.all(changelogs.map((name) => readPage(dist, `/changelog/${name}/`)));
  collectionPages.push(...changelogPages);
  sections.push({
    heading: "Optional",
    links: changelogPages.map(({ title, url }) => ({ title: `Changelog of ${title}`, url })),
  });

  await appendToFile(join(dist, "llms.txt"), renderIndexSections(sections));
  const fullPath = join(dist, "llms-full.txt");
  await writeFile(fullPath, addSourceLines(await readFile(fullPath, "utf8"), collectionPages));
  await appendToFile(fullPath, references.join("\n\n"));
}

/** What `llms.txt` says under its title, before the lists this plugin adds. */
export const LLMS_DETAILS =
  "Every page is listed below by section with its absolute URL; llms-full.txt holds the guides' text and every operation of the API reference.";

/**
 * Completes the files starlight-llms-txt writes (it comes first in the plugin list, with `LLMS_DETAILS` and the
 * changelog demoted to the end) once the site is built.
 */
export function llmsReference(): StarlightPlugin {
  return {
    name: "pigeonhole-llms-reference",
    hooks: {
      "config:setup"({ config, addIntegration }) {
        addIntegration({
          name: "pigeonhole-llms-reference",
          hooks: {
            "astro:build:done": async ({ dir }) => completeLlmsFiles(fileURLToPath(dir), config.sidebar),
          },
        });
      },
    },
  };
}
