import { describe, expect, it } from "vitest";
import { renderClientPage, rewriteReadmeLink } from "./client-pages.ts";

describe("links of a README shown on the site", () => {
  it.each([
    ["https://pigeonhole.dev/guides/errors/", "/guides/errors/"],
    ["https://openapi-ts.dev/openapi-fetch/", "https://openapi-ts.dev/openapi-fetch/"],
    ["#errors", "#errors"],
    ["../inbox/README.md#errors", "/clients/inbox/#errors"],
    ["../../apps/docs/src/content/docs/guides/testing-your-integration.mdx", "/guides/testing-your-integration/"],
    ["../../apps/server", "https://github.com/pigeonhole-dev/pigeonhole/tree/main/apps/server"],
  ])("%s from packages/forum leads to %s", (target, expected) => {
    expect(rewriteReadmeLink(target, "forum")).toBe(expected);
  });
});

describe("a client's page", () => {
  it("takes its title and description from the manifest and its text from the README, links rewritten", () => {
    const page = renderClientPage(
      { name: "@pigeonhole/forum", description: "The forum client." },
      "# @pigeonhole/forum\n\nSee [errors](https://pigeonhole.dev/guides/errors/).\n\n## Errors\n",
      "forum",
      1,
    );
    expect(page).toBe(
      [
        "---",
        'title: "@pigeonhole/forum"',
        'description: "The forum client."',
        "sidebar: { order: 1 }",
        "---",
        "",
        "The README of `@pigeonhole/forum`, as published on npm.",
        "",
        "See [errors](/guides/errors/).\n\n## Errors",
        "",
      ].join("\n"),
    );
  });
});
