import { readdir, readFile } from "node:fs/promises";
import { extname, join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, DIST } from "./built-site.ts";

/** Tags whose URL attributes the browser fetches on its own (links the reader follows are `<a>`, and are fine). */
const FETCHING_TAG = /<(script|link|img|iframe|source|video|audio|embed|object|image|use)\b[^>]*>/gi;
const URL_ATTRIBUTE = /\b(?:src|href|srcset|poster|data|xlink:href)\s*=\s*["']?\s*((?:https?:)?\/\/[^"'\s>]+)/gi;
const CSS_URL = /(?:url\(\s*["']?|@import\s+["'])((?:https?:)?\/\/[^"')\s]+)/gi;
/** `<link>`s that name the page's address for search engines and crawlers; a browser loads nothing for them. */
const NAMING_LINK = /^<link\b[^>]*\brel\s*=\s*["']?(?:canonical|alternate)\b/i;

/** Every absolute URL a page or stylesheet of the build would make the browser request by itself. */
function fetchedUrls(file: string, text: string): string[] {
  const urls: string[] = [];
  if (extname(file) === ".html") {
    for (const [tag] of text.matchAll(FETCHING_TAG)) {
      if (NAMING_LINK.test(tag)) {
        continue;
      }
      for (const match of tag.matchAll(URL_ATTRIBUTE)) {
        urls.push(match[1] ?? "");
      }
    }
  }
  if (extname(file) === ".css" || extname(file) === ".html") {
    for (const match of text.matchAll(CSS_URL)) {
      urls.push(match[1] ?? "");
    }
  }
  return urls;
}

describe("the built site", () => {
  const files: string[] = [];

  beforeAll(async () => {
    assertBuilt();
    for (const entry of await readdir(DIST, { recursive: true, withFileTypes: true })) {
      if (entry.isFile() && [".html", ".css"].includes(extname(entry.name))) {
        files.push(join(entry.parentPath, entry.name));
      }
    }
  });

  it("loads no font, script, style or image from another host", async () => {
    expect(files.filter((file) => file.endsWith(".html")).length).toBeGreaterThan(30);
    const foreign: string[] = [];
    for (const file of files) {
      for (const url of fetchedUrls(file, await readFile(file, "utf8"))) {
        foreign.push(`${file.slice(DIST.length)}: ${url}`);
      }
    }
    expect(foreign).toEqual([]);
  });

  it("recognises what it looks for", () => {
    const page = [
      '<link rel="stylesheet" href="https://cdn.example.com/a.css">',
      '<script type="module" src="//cdn.example.com/b.js"></script>',
      '<a href="https://www.standardwebhooks.com/">a link to follow</a>',
      '<link rel="canonical" href="https://pigeonhole.dev/guides/errors/">',
      "<style>@font-face { src: url(https://fonts.example.com/c.woff2) }</style>",
    ].join("\n");
    expect(fetchedUrls("x.html", page)).toEqual([
      "https://cdn.example.com/a.css",
      "//cdn.example.com/b.js",
      "https://fonts.example.com/c.woff2",
    ]);
  });
});
