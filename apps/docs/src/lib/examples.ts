import { readdir, readFile } from "node:fs/promises";
import { extname, join } from "node:path";

export interface ExampleFile {
  operationId: string;
  /** Absolute path of the file. */
  path: string;
  source: string;
}

/** The example files of one API folder (`examples/inbox`), keyed by the operationId that names each file. */
export async function readExamples(dir: string): Promise<Map<string, ExampleFile[]>> {
  const examples = new Map<string, ExampleFile[]>();
  for (const name of (await readdir(dir)).sort()) {
    const extension = extname(name);
    const operationId = name.slice(0, name.length - extension.length);
    const path = join(dir, name);
    const files = examples.get(operationId) ?? [];
    files.push({ operationId, path, source: await readFile(path, "utf8") });
    examples.set(operationId, files);
  }
  return examples;
}

export interface ExampleCoverage {
  /** Operations without an example file. */
  missing: string[];
  /** Operations with more than one file (`sendMessage.ts` and `sendMessage.mts`). */
  duplicated: string[];
  /** Files named after no operation of the bundle: renamed or removed operations. */
  orphaned: string[];
}

/** Compares the operationIds of a bundle with the example files; every list is empty when each has exactly one. */
export function checkCoverage(
  operationIds: readonly string[],
  examples: ReadonlyMap<string, ExampleFile[]>,
): ExampleCoverage {
  const known = new Set(operationIds);
  return {
    missing: operationIds.filter((id) => !examples.has(id)),
    duplicated: [...examples].filter(([, files]) => files.length > 1).map(([id]) => id),
    orphaned: [...examples.keys()].filter((id) => !known.has(id)),
  };
}

export function describeCoverageProblems(api: string, coverage: ExampleCoverage): string[] {
  const problems: string[] = [];
  for (const id of coverage.missing) {
    problems.push(`${api}: operation ${id} has no example; add examples/${api}/${id}.ts`);
  }
  for (const id of coverage.duplicated) {
    problems.push(`${api}: operation ${id} has more than one example file; keep one`);
  }
  for (const id of coverage.orphaned) {
    problems.push(`${api}: examples/${api}/${id} names no operation of the bundle; rename or remove it`);
  }
  return problems;
}
