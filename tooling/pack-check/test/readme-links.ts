// The links of a README as npm shows it: a path relative to the package leads nowhere on npmjs.com, which renders the
// README without the repository around it, so every link must be an absolute address or an anchor of the page.

/** Fenced code blocks and code spans: what looks like a link there is code. */
const CODE = /^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$|`+[^`\n]*`+/gm;

/** Targets of inline links and images, reference definitions, and HTML `href` and `src` attributes. */
const TARGETS = [
  /!?\[[^\]]*\]\(\s*<?([^)\s>]+)/g,
  /^\s{0,3}\[[^\]]+\]:\s*<?([^\s>]+)/gm,
  /\b(?:href|src)\s*=\s*["']([^"']+)["']/g,
];

/** An address that works wherever the README is shown: a scheme of its own, or an anchor on the page itself. */
const ABSOLUTE = /^(?:[a-z][a-z0-9+.-]*:|#)/i;

/** Every link target of `markdown` that is relative to the file it sits in. */
export function relativeLinks(markdown: string): string[] {
  const prose = markdown.replace(CODE, "");
  return TARGETS.flatMap((pattern) => [...prose.matchAll(pattern)].map((match) => match[1] ?? "")).filter(
    (target) => !ABSOLUTE.test(target),
  );
}
