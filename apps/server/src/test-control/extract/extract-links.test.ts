import { describe, expect, it } from "vitest";
import { bareUrls, extractLinks } from "./extract-links.ts";

describe("extractLinks", () => {
  it("finds the button of a verification mail once, with the bare copy of the text", () => {
    const links = extractLinks({
      text: "Confirm your address: https://app.example.com/verify?token=8f3c2a1b9d4e\n\nThanks, Example",
      html: [
        '<table role="presentation"><tr><td style="padding:24px">',
        "<p>Confirm your address.</p>",
        '<a href="https://app.example.com/verify?token=8f3c2a1b9d4e" class="button" target="_blank">Verify</a>',
        '<p>Questions? <a href="mailto:help@example.com">Write to us</a>.</p>',
        "</td></tr></table>",
      ].join(""),
    });
    expect(links).toEqual(["https://app.example.com/verify?token=8f3c2a1b9d4e"]);
  });

  it("decodes &amp; in a password reset link's query string, in hrefs and in visible text", () => {
    const html = [
      "<p>Someone asked to reset your password.</p>",
      "<p><a href='https://id.example.org/reset?user=42&amp;token=Zx9%2Fq&amp;lang=en'>Reset password</a></p>",
      "<p>Or paste https://id.example.org/reset?user=42&amp;token=Zx9%2Fq&#38;lang=en into your browser.</p>",
      '<p><a href="https://id.example.org/help#reset">Help</a></p>',
    ].join("\n");
    expect(extractLinks({ text: null, html })).toEqual([
      "https://id.example.org/reset?user=42&token=Zx9%2Fq&lang=en",
      "https://id.example.org/help#reset",
    ]);
  });

  it("keeps the order of first appearance, text before html, each link once", () => {
    const links = extractLinks({
      text: "Docs: https://docs.example.com/start. Blog (https://blog.example.com/post-1)!",
      html: '<a href="https://blog.example.com/post-1">Blog</a> <a href="HTTPS://shop.example.com/">Shop</a> <a href="https://docs.example.com/start">Docs</a>',
    });
    expect(links).toEqual([
      "https://docs.example.com/start",
      "https://blog.example.com/post-1",
      "HTTPS://shop.example.com/",
    ]);
  });

  it("leaves out what a test cannot follow: other schemes, relative links, anchors and broken URLs", () => {
    const html =
      '<a href="/settings">Settings</a><a href="#top">Top</a><a href="tel:+15550100">Call</a>' +
      '<a href="javascript:void(0)">x</a><a href="ftp://files.example.com/a">ftp</a><a href="https://">empty</a>' +
      '<img src="https://cdn.example.com/logo.png" alt="logo">';
    expect(extractLinks({ text: "ftp://files.example.com/a and http:/broken", html })).toEqual([]);
  });

  it("reads unquoted and oddly spaced attributes, and drops line breaks a wrapped href carries", () => {
    const html =
      '<A HREF=https://a.example.com/x?y=1>A</A><a class="c" title="1 > 0" href = "https://b.example.com/very/long\n/path">B</a>';
    expect(extractLinks({ text: null, html })).toEqual([
      "https://a.example.com/x?y=1",
      "https://b.example.com/very/long/path",
    ]);
  });

  it("ignores links in comments, styles and scripts", () => {
    const html =
      "<head><title>https://title.example.com</title><style>.a{background:url(https://css.example.com/x.png)}</style></head>" +
      "<!-- https://comment.example.com --><script>location='https://script.example.com'</script>" +
      "<p>Visit https://visible.example.com</p>";
    expect(extractLinks({ text: null, html })).toEqual(["https://visible.example.com"]);
  });

  it("has nothing to find in a message with no bodies", () => {
    expect(extractLinks({ text: null, html: null })).toEqual([]);
  });
});

describe("bareUrls", () => {
  it.each([
    ["See https://x.test/a.", "https://x.test/a"],
    ["Go to https://x.test/a?b=1, then", "https://x.test/a?b=1"],
    ["(see https://x.test/a)", "https://x.test/a"],
    ["Read https://en.wikipedia.org/wiki/Mail_(protocol)", "https://en.wikipedia.org/wiki/Mail_(protocol)"],
    ["(Read https://en.wikipedia.org/wiki/Mail_(protocol)).", "https://en.wikipedia.org/wiki/Mail_(protocol)"],
    ["Open https://x.test/a/b/ now", "https://x.test/a/b/"],
    ["Is it https://x.test/a?q=x?", "https://x.test/a?q=x"],
  ])("%s -> %s", (text, expected) => {
    expect(bareUrls(text)).toEqual([expected]);
  });

  it("takes only written-out http and https URLs", () => {
    expect(bareUrls("example.com, www.example.com, ada@example.com, ftp://files.example.com/a")).toEqual([]);
  });
});
