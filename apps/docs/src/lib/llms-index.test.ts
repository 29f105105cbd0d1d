import { describe, expect, it } from "vitest";
import { addSourceLines, readMeta, renderIndexSections } from "./llms-index.ts";

describe("the llms.txt index", () => {
  it("lists each section's links with their notes, and leaves out empty sections", () => {
    expect(
      renderIndexSections([
        { heading: "Guides", links: [{ title: "Errors", url: "https://x.dev/guides/errors/", note: "envelopes" }] },
        { heading: "Empty", links: [] },
        { heading: "Optional", links: [{ title: "Changelog", url: "https://x.dev/changelog/" }] },
      ]),
    ).toBe(
      "## Guides\n\n- [Errors](https://x.dev/guides/errors/): envelopes\n\n## Optional\n\n- [Changelog](https://x.dev/changelog/)",
    );
  });
});

describe("source lines in llms-full.txt", () => {
  const full =
    "<SYSTEM>docs</SYSTEM>\n\n# Quickstart\n\n> Start.\n\nText.\n\n# @x/inbox\n\n> The client.\n\nA.\n\n# @x/inbox\n\n> Release notes.\n\nB.";

  it("adds each page's URL under its heading, telling two pages of one title apart by their description", () => {
    const text = addSourceLines(full, [
      { title: "@x/inbox", description: "Release notes.", url: "https://x.dev/changelog/inbox/" },
      { title: "@x/inbox", description: "The client.", url: "https://x.dev/clients/inbox/" },
      { title: "Quickstart", description: "Another text.", url: "https://x.dev/quickstart/" },
    ]);
    expect(text).toContain("# Quickstart\n\nSource: https://x.dev/quickstart/\n\n> Start.");
    expect(text).toContain("# @x/inbox\n\nSource: https://x.dev/clients/inbox/\n\n> The client.");
    expect(text).toContain("# @x/inbox\n\nSource: https://x.dev/changelog/inbox/\n\n> Release notes.");
  });

  it("fails on a page it cannot place, rather than leave it without its URL", () => {
    expect(() => addSourceLines(full, [{ title: "Missing", description: undefined, url: "https://x.dev/m/" }])).toThrow(
      /0 sections titled "Missing"/,
    );
  });
});

describe("meta tags of a built page", () => {
  it("reads a property or a name, with its entities decoded", () => {
    const html =
      '<meta property="og:title" content="Agents &amp; votes"/><meta name="description" content="It&#39;s &quot;fine&quot;"/>';
    expect(readMeta(html, "og:title")).toBe("Agents & votes");
    expect(readMeta(html, "description")).toBe('It\'s "fine"');
    expect(readMeta(html, "og:url")).toBeUndefined();
  });
});
