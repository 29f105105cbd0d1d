import { describe, expect, it } from "vitest";
import { relativeLinks } from "./readme-links.ts";

describe("relativeLinks", () => {
  it("finds the relative targets of links, images, reference definitions and HTML", () => {
    const markdown = [
      "The [server](../../apps/server) and its [guide](https://pigeonhole.example/guides/deploying/).",
      "![logo](./logo.svg) and [a section](#install) of this page.",
      "[deploy]: deploy/",
      '<a href="ARCHITECTURE.md">map</a> <img src="https://example.com/x.png">',
    ].join("\n");
    expect(relativeLinks(markdown)).toEqual(["../../apps/server", "./logo.svg", "deploy/", "ARCHITECTURE.md"]);
  });

  it("ignores what only looks like a link inside code", () => {
    const markdown = ["Call `list[0](x)` here.", "```ts", "const y = handlers[name](request);", "```"].join("\n");
    expect(relativeLinks(markdown)).toEqual([]);
  });
});
