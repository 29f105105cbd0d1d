// What a tarball ships, read from the tarball itself: its files, which of them belong to a test harness, and which
// packages its modules import. TypeScript's own import scanner reads the specifiers, of JavaScript and declarations
// alike: static and dynamic imports, re-exports, `require` calls and `/// <reference types>` directives.
import { readFile } from "node:fs/promises";
import { isBuiltin } from "node:module";
import { unpack } from "@publint/pack";
import ts from "typescript";

export interface PackedFile {
  /** The path in the package, as installed (without the tarball's `package/` folder). */
  path: string;
  data: Uint8Array;
}

/** An import of a package that the importing package does not depend on. */
export interface ForeignImport {
  file: string;
  specifier: string;
}

/** Folders that hold a harness, at any depth: tests, their helpers, benchmarks and fuzzers. */
const HARNESS_FOLDERS = new Set(["test", "tests", "testing", "__tests__", "bench", "fuzz", "multi-instance"]);
const TEST_FILE = /\.(test|spec|test-d)\.[cm]?[jt]sx?$|\.(test|spec)\.d\.[cm]?ts$/;
const MODULE_FILE = /\.[cm]?[jt]sx?$/;

export async function packedFiles(tarball: string): Promise<PackedFile[]> {
  const { files, rootDir } = await unpack(await readFile(tarball));
  return files.map(({ name, data }) => ({ path: name.slice(rootDir.length + 1), data }));
}

/** The files a harness would leave in the package: anything in a harness folder, and every test file. */
export function harnessFiles(files: readonly PackedFile[]): string[] {
  return files
    .map(({ path }) => path)
    .filter(
      (path) =>
        TEST_FILE.test(path) ||
        path
          .split("/")
          .slice(0, -1)
          .some((folder) => HARNESS_FOLDERS.has(folder)),
    );
}

/** The package a bare specifier names (`@scope/name` or `name`), or null for a relative path or Node's own module. */
export function packageOf(specifier: string): string | null {
  if (specifier.startsWith(".") || specifier.startsWith("/") || isBuiltin(specifier)) {
    return null;
  }
  const [first = "", second = ""] = specifier.split("/");
  return first.startsWith("@") ? `${first}/${second}` : first;
}

/** Every specifier a module names: imports, re-exports, dynamic imports, `require` calls, type references. */
export function importedSpecifiers(source: string): string[] {
  const { importedFiles, typeReferenceDirectives } = ts.preProcessFile(source, true, true);
  return [...importedFiles, ...typeReferenceDirectives].map((reference) => reference.fileName);
}

/** The imports of packages outside `dependencies` (and the package itself), over every module in `files`. */
export function foreignImports(
  files: readonly PackedFile[],
  packageName: string,
  dependencies: readonly string[],
): ForeignImport[] {
  const allowed = new Set([packageName, ...dependencies]);
  const decoder = new TextDecoder();
  return files
    .filter(({ path }) => MODULE_FILE.test(path))
    .flatMap(({ path, data }) =>
      importedSpecifiers(decoder.decode(data))
        .filter((specifier) => {
          const name = packageOf(specifier);
          return name !== null && !allowed.has(name);
        })
        .map((specifier) => ({ file: path, specifier })),
    );
}
