// Every file or folder of the repository that the READMEs and the server's map name exists, so that a walkthrough
// never sends a reader to a file that has moved.
import { existsSync, globSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, posix } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("..", import.meta.url));

/** The documents whose paths are checked, from the repository's root. */
const DOCUMENTS = ["README.md", "apps/server/README.md", "apps/server/ARCHITECTURE.md"];

/** The text outside fenced code blocks, whose content is code to run rather than paths to follow. */
function prose(markdown: string): string {
  let fenced = false;
  return markdown
    .split("\n")
    .filter((line) => {
      if (/^\s*```/.test(line)) {
        fenced = !fenced;
        return false;
      }
      return !fenced;
    })
    .join("\n");
}

/** What a README names in code spans (without spaces) and in relative links, in order. */
function namedPaths(markdown: string): { path: string; link: boolean }[] {
  const text = prose(markdown);
  const spans = [...text.matchAll(/`([^`\s]+)`/g)].map((match) => ({
    at: match.index,
    path: match[1] ?? "",
    link: false,
  }));
  const links = [...text.matchAll(/\]\(([^)\s#]+)(#[^)]*)?\)/g)]
    .filter((match) => !/^[a-z]+:/i.test(match[1] ?? ""))
    .map((match) => ({ at: match.index, path: match[1] ?? "", link: true }));
  return [...spans, ...links].sort((a, b) => a.at - b.at).map(({ path, link }) => ({ path, link }));
}

const exists = (base: string, path: string) =>
  path.includes("*") ? globSync(path, { cwd: join(root, base) }).length > 0 : existsSync(join(root, base, path));

/** The folders `path` lies in, innermost first: a walkthrough names the next files relative to them. */
const foldersOf = (path: string) => {
  const folders: string[] = [];
  for (let folder = posix.dirname(path); folder !== "." && folder !== "/"; folder = posix.dirname(folder)) {
    folders.push(folder);
  }
  return folders;
};

/** Whether `path` starts with a file or folder of `base`. */
const startsIn = (base: string, path: string) => readdirSync(join(root, base)).includes(path.split("/")[0] ?? "");

/**
 * The repository paths a README names, and those of them that do not exist. A link is relative to the README's
 * folder. A code span is a path when, without a leading `./`, it holds a `/` and starts with an entry of the README's
 * folder, of the repository's root or of a folder an earlier path named (so neither `application/json` nor `/v0` is
 * one), and it may be relative to any of those.
 */
function checkPaths(readme: string): { checked: string[]; missing: string[] } {
  const folder = dirname(readme);
  const bases = [folder, "."];
  const checked: string[] = [];
  const missing: string[] = [];
  for (const { path: named, link } of namedPaths(readFileSync(join(root, readme), "utf8"))) {
    const path = named.replace(/^\.\//, "").replace(/\/$/, "");
    const from = link ? [folder] : bases.filter((base) => startsIn(base, path));
    if (!link && (!path.includes("/") || path.startsWith("/") || from.length === 0)) {
      continue;
    }
    checked.push(named);
    const base = from.find((candidate) => exists(candidate, path));
    if (base === undefined) {
      missing.push(named);
    } else if (!path.includes("*")) {
      bases.push(...foldersOf(posix.join(base, path)));
    }
  }
  return { checked, missing };
}

describe("the paths the documents name", () => {
  it.each(DOCUMENTS)("all exist in %s", (document) => {
    const { checked, missing } = checkPaths(document);
    expect(checked.length).toBeGreaterThan(3);
    expect(missing).toEqual([]);
  });
});
