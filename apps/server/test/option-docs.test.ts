import { execFile } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { deploymentTable, readmeTable, staleDocuments, TABLE_REGIONS, writeTables } from "../scripts/option-tables.ts";
import type { OptionTable } from "../src/options/option-definition.ts";
import { OPTIONS, optionEntries } from "../src/options/option-table.ts";

const REPOSITORY = fileURLToPath(new URL("../../../", import.meta.url));
const SCRIPT = fileURLToPath(new URL("../scripts/option-docs.ts", import.meta.url));
const README = "apps/server/README.md";
const GUIDE = "apps/docs/src/content/docs/guides/deploying.mdx";

const copies = mkdtempSync(join(tmpdir(), "pigeonhole-option-docs-"));
afterAll(() => rmSync(copies, { recursive: true, force: true }));

/** A repository of its own holding copies of the documents with generated tables. */
function copyOfDocuments(): string {
  const root = mkdtempSync(join(copies, "repository-"));
  for (const { path } of TABLE_REGIONS) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    copyFileSync(join(REPOSITORY, path), join(root, path));
  }
  return root;
}

/** Runs the script as `pnpm generate` and `pnpm check:generated` do, on the documents under `root`. */
const runScript = (args: string[], root: string) =>
  new Promise<{ status: number; stdout: string; stderr: string }>((resolve) => {
    execFile(process.execPath, [SCRIPT, ...args, "--root", root], (error, stdout, stderr) =>
      resolve({ status: error === null ? 0 : Number(error.code), stdout, stderr }),
    );
  });

/** The option table with another default for --inbox-port. */
const CHANGED: OptionTable = { ...OPTIONS, inboxPort: { ...OPTIONS.inboxPort, default: { value: 4011 } } };

describe("the options tables generated into the documentation", () => {
  it("are the ones the option table makes, in the README and in the deployment guide", () => {
    expect(staleDocuments(REPOSITORY)).toEqual([]);
  });

  it("are out of date once the option table changes, until generated again", () => {
    expect(staleDocuments(REPOSITORY, CHANGED)).toEqual([README, GUIDE]);
    const root = copyOfDocuments();
    expect(writeTables(root, CHANGED)).toEqual([README, GUIDE]);
    expect(staleDocuments(root, CHANGED)).toEqual([]);
    expect(readFileSync(join(root, README), "utf8")).toMatch(
      /^\| `--inbox-port <port>` +\| `PIGEONHOLE_INBOX_PORT` +\| `4011` +\|/m,
    );
  });

  it("fail check:generated when a committed table was edited by hand, and generate puts it back", async () => {
    const root = copyOfDocuments();
    const readme = join(root, README);
    const committed = readFileSync(readme, "utf8");
    writeFileSync(readme, committed.replace(/^\| `--inbox-port <port>` .*$/m, "| `--inbox-port <port>` | `4011` | |"));

    const check = await runScript(["--check"], root);
    expect(check.status).toBe(1);
    expect(check.stderr).toContain(`${README}: its options table differs from apps/server/src/options/option-table.ts`);
    expect(check.stderr).toContain("pnpm generate");
    expect(check.stderr).not.toContain(GUIDE);

    expect(await runScript([], root)).toMatchObject({ status: 0, stdout: `Rewrote the options table of ${README}.\n` });
    expect(readFileSync(readme, "utf8")).toBe(committed);
    expect(await runScript(["--check"], root)).toMatchObject({ status: 0, stderr: "" });
  });

  it("name each option's variable, with how a switch, a list and a secret's file are given", () => {
    const readme = readmeTable(OPTIONS);
    for (const [, option] of optionEntries()) {
      if (option.commands.includes("start") && option.env !== null) {
        expect(readme).toContain(`\`${option.env.name}`);
      }
    }
    expect(readme).toMatch(/^\| `--no-smtp` +\| `PIGEONHOLE_SMTP=false` +\|/m);
    expect(readme).toContain("| `PIGEONHOLE_DOMAIN`, comma-separated ");
    const guide = deploymentTable(OPTIONS);
    expect(guide).toContain("| `PIGEONHOLE_DATABASE_URL` or `PIGEONHOLE_DATABASE_URL_FILE` ");
    expect(guide).toContain("| `PIGEONHOLE_DEV_KEYS=true` or `false` ");
  });

  it("refuses a document that lost its markers, and guide text that MDX would read as markup", () => {
    const root = copyOfDocuments();
    writeFileSync(join(root, GUIDE), "## Settings that matter\n");
    expect(() => staleDocuments(root)).toThrow(`${GUIDE} has no region`);
    const tagged: OptionTable = { ...OPTIONS, quiet: { ...OPTIONS.quiet, deployment: "when <b>logged</b> elsewhere" } };
    expect(() => deploymentTable(tagged)).toThrow("--quiet");
  });
});
