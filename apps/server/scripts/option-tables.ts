// The options tables of the server's README and of the deployment guide, made from the option table, and the regions
// of those documents that hold them.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { CommandLineOption, OptionTable } from "../src/options/option-definition.ts";
import { OPTIONS, optionEntries } from "../src/options/option-table.ts";
import { defaultOf, flagsOf, synopsis, variableOf } from "../src/options/option-text.ts";

const code = (text: string) => `\`${text}\``;

/** Text for a table cell, where a pipe would end the cell. */
const cell = (text: string) => text.replaceAll("|", "\\|");

/** Columns are as wide as their longest cell up to this width; a longer cell sticks out of its row. */
const MAX_PADDED_WIDTH = 44;

/** A Markdown table with its columns aligned, but for the last, whose cells are long. */
function markdownTable(header: readonly string[], rows: readonly string[][]): string {
  const last = header.length - 1;
  const width = (column: number) =>
    Math.max(
      3,
      ...[header, ...rows].map((row) => row[column]?.length ?? 0).filter((length) => length <= MAX_PADDED_WIDTH),
    );
  const widths = header.map((title, column) => (column === last ? Math.max(3, title.length) : width(column)));
  const line = (cells: readonly string[]) =>
    `| ${cells.map((text, column) => (column === last ? text : text.padEnd(widths[column] ?? 0))).join(" | ")} |`;
  return [line(header), line(widths.map((width) => "-".repeat(width))), ...rows.map(line)].join("\n");
}

const optionsOf = (table: OptionTable, keep: (option: CommandLineOption) => boolean) =>
  optionEntries(table)
    .map(([, option]) => option)
    .filter(keep);

/** Its flags, each as code, and a value option's argument. */
const synopsisCell = (option: CommandLineOption) =>
  cell(option.kind === "value" ? code(synopsis(option)) : flagsOf(option).map(code).join(", "));

const flagsCell = (option: CommandLineOption) => flagsOf(option).map(code).join(", ");

/** The default, or what an option not given means: a switch is off, a value none (`--no-smtp` says it itself). */
function defaultCell(option: CommandLineOption): string {
  const absent = option.kind === "value" ? "none" : option.negation === "only" ? "" : "off";
  return cell(defaultOf(option) ?? absent);
}

/** How its variable sets it (environment.ts), or nothing for an option without one. */
const variableCell = (option: CommandLineOption) => cell(variableOf(option) ?? "");

/** The README's table: every option of start, with its variable and its help. */
export function readmeTable(table: OptionTable): string {
  const rows = optionsOf(table, (option) => option.commands.includes("start")).map((option) => [
    synopsisCell(option),
    variableCell(option),
    defaultCell(option),
    cell(option.kind === "value" && option.repeatable ? `${option.help} (repeatable)` : option.help),
  ]);
  return markdownTable(["option", "variable", "default", "what it does"], rows);
}

/** MDX reads `<` as the start of a tag and braces as an expression: only code may hold them. */
function mdxSafe(text: string, flag: string): string {
  if (/[<>{}]/.test(text.replaceAll(/`[^`]*`/g, ""))) {
    throw new Error(`--${flag}: the deployment guide's table would read its text as MDX: ${text}`);
  }
  return text;
}

/** The deployment guide's table: the options that matter in production, with what to know about each. */
export function deploymentTable(table: OptionTable): string {
  const rows = optionsOf(table, (option) => option.deployment !== undefined).map((option) =>
    [flagsCell(option), variableCell(option), defaultCell(option), option.deployment ?? ""].map((text) =>
      mdxSafe(text, option.flag),
    ),
  );
  return markdownTable(["option", "variable", "default", "what to know"], rows);
}

/** A document region that holds a generated table, between two marker lines. */
export interface TableRegion {
  /** The document, from the repository's root. */
  readonly path: string;
  readonly begin: string;
  readonly end: string;
  readonly render: (table: OptionTable) => string;
}

export const TABLE_REGIONS: readonly TableRegion[] = [
  {
    path: "apps/server/README.md",
    begin: "<!-- Generated from src/options/option-table.ts by `pnpm generate`: edit the table there. -->",
    end: "<!-- End of the generated options table. -->",
    render: readmeTable,
  },
  {
    path: "apps/docs/src/content/docs/guides/deploying.mdx",
    begin: "{/* Generated from apps/server/src/options/option-table.ts by `pnpm generate`: edit the table there. */}",
    end: "{/* End of the generated options table. */}",
    render: deploymentTable,
  },
];

/** The document with its region holding the table made from `table`. */
export function withTable(document: string, region: TableRegion, table: OptionTable): string {
  const begin = document.indexOf(region.begin);
  const end = document.indexOf(region.end, begin);
  if (begin < 0 || end < 0) {
    throw new Error(`${region.path} has no region between the lines ${region.begin} and ${region.end}.`);
  }
  return `${document.slice(0, begin + region.begin.length)}\n\n${region.render(table)}\n\n${document.slice(end)}`;
}

/** A Markdown document as the repository's formatter leaves it (it aligns tables its own way); MDX is kept as is. */
function formatted(path: string, document: string): string {
  if (!path.endsWith(".md")) {
    return document;
  }
  return execFileSync("biome", ["format", `--stdin-file-path=${path}`], { input: document, encoding: "utf8" });
}

/** The document with its region made from `table`, formatted. */
const regenerated = (document: string, region: TableRegion, table: OptionTable) =>
  formatted(region.path, withTable(document, region, table));

/** The documents under `root` whose table differs from the one `table` makes. */
export function staleDocuments(root: string, table: OptionTable = OPTIONS): string[] {
  return TABLE_REGIONS.filter((region) => {
    const document = readFileSync(join(root, region.path), "utf8");
    return regenerated(document, region, table) !== document;
  }).map((region) => region.path);
}

/** Rewrites the tables of the documents under `root` that differ; answers those it rewrote. */
export function writeTables(root: string, table: OptionTable = OPTIONS): string[] {
  return TABLE_REGIONS.filter((region) => {
    const file = join(root, region.path);
    const document = readFileSync(file, "utf8");
    const rewritten = regenerated(document, region, table);
    if (rewritten !== document) {
      writeFileSync(file, rewritten);
    }
    return rewritten !== document;
  }).map((region) => region.path);
}
