// What `llms.txt` lists, in Markdown: a section of links per part of the site, each with an absolute URL.

export interface IndexLink {
  title: string;
  url: string;
  /** After the link, on the same line. */
  note?: string;
}

export interface IndexSection {
  heading: string;
  links: IndexLink[];
}

/** `## heading` then one `- [title](url): note` line per link, as the llms.txt format lists files. */
export function renderIndexSections(sections: readonly IndexSection[]): string {
  return sections
    .filter((section) => section.links.length > 0)
    .map((section) =>
      [
        `## ${section.heading}`,
        "",
        ...section.links.map(({ title, url, note }) => `- [${title}](${url})${note ? `: ${note}` : ""}`),
      ].join("\n"),
    )
    .join("\n\n");
}

/** A page of the docs collection as `llms-full.txt` shows it: a heading, then its description as a quote. */
export interface FullTextPage {
  title: string;
  description: string | undefined;
  url: string;
}

/**
 * Adds a `Source: <url>` line under each page's heading in `llms-full.txt`, so a model can cite the page. A title
 * shared by two pages (a client and its changelog) is told apart by the description quoted under it.
 */
export function addSourceLines(full: string, pages: readonly FullTextPage[]): string {
  let text = full;
  for (const page of pages) {
    const heading = `# ${page.title}\n`;
    const starts = [...text.matchAll(new RegExp(`(?<=^|\\n)${escapeRegExp(heading)}`, "g"))].map((m) => m.index);
    const described = starts.filter((start) =>
      text.slice(start + heading.length).startsWith(`\n> ${page.description ?? ""}`),
    );
    // A shell comment in an example can look like a heading: the description under it tells them apart.
    const start = described.length === 1 ? described[0] : starts.length === 1 ? starts[0] : undefined;
    if (start === undefined) {
      throw new Error(
        `llms-full.txt has ${starts.length} sections titled ${JSON.stringify(page.title)}: cannot place ${page.url}.`,
      );
    }
    const at = start + heading.length;
    text = `${text.slice(0, at)}\nSource: ${page.url}\n${text.slice(at)}`;
  }
  return text;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The `content` of a `<meta>` tag of a built page (`og:title`, `description`), entities decoded. */
export function readMeta(html: string, name: string): string | undefined {
  const tag = html.match(new RegExp(`<meta (?:name|property)="${escapeRegExp(name)}" content="([^"]*)"`));
  return tag?.[1] === undefined ? undefined : decodeEntities(tag[1]);
}

const NAMED_ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (entity, body: string) => {
    if (body.startsWith("#x") || body.startsWith("#X")) {
      return String.fromCodePoint(Number.parseInt(body.slice(2), 16));
    }
    if (body.startsWith("#")) {
      return String.fromCodePoint(Number.parseInt(body.slice(1), 10));
    }
    return NAMED_ENTITIES[body.toLowerCase()] ?? entity;
  });
}
