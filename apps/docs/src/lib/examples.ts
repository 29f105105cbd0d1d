import { readdir, readFile } from "node:fs/promises";
import { basename, extname, join } from "node:path";
import type { OperationEntry } from "./openapi.ts";

/** A language the reference shows examples in, and the operations that need one in it. */
export interface ExampleLanguage {
  readonly id: "typescript" | "curl";
  /** The name of the example in the page's picker. */
  readonly label: string;
  /** The highlighting language of the code block. */
  readonly lang: string;
  /** The file extensions of its examples; the first is the one to create. */
  readonly extensions: readonly string[];
  /**
   * The kinds of operation that need an example in this language. A webhook event is a request the service sends to
   * you, so it has a receiver in TypeScript and no curl command.
   */
  readonly kinds: readonly OperationEntry["kind"][];
}

/** In the order the reference shows them: the first is the one a page opens with. */
export const EXAMPLE_LANGUAGES: readonly ExampleLanguage[] = [
  { id: "typescript", label: "TypeScript", lang: "ts", extensions: [".ts", ".mts"], kinds: ["path", "webhook"] },
  { id: "curl", label: "curl", lang: "sh", extensions: [".sh"], kinds: ["path"] },
];

export interface ExampleFile {
  operationId: string;
  language: ExampleLanguage["id"];
  /** Absolute path of the file. */
  path: string;
  source: string;
}

/** The language of a file name, by its extension. */
export function languageOf(fileName: string): ExampleLanguage | undefined {
  const extension = extname(fileName);
  return EXAMPLE_LANGUAGES.find((language) => language.extensions.includes(extension));
}

/**
 * The example files of one API folder (`examples/inbox`), keyed by the operationId that names each file. A file of no
 * known language is refused rather than left out of the reference without a word.
 */
export async function readExamples(dir: string): Promise<Map<string, ExampleFile[]>> {
  const examples = new Map<string, ExampleFile[]>();
  for (const name of (await readdir(dir)).sort()) {
    const language = languageOf(name);
    if (language === undefined) {
      throw new Error(`${join(dir, name)} is in no example language (${describeExtensions()})`);
    }
    const operationId = name.slice(0, name.length - extname(name).length);
    const path = join(dir, name);
    const files = examples.get(operationId) ?? [];
    files.push({ operationId, language: language.id, path, source: await readFile(path, "utf8") });
    examples.set(operationId, files);
  }
  return examples;
}

function describeExtensions(): string {
  return EXAMPLE_LANGUAGES.flatMap((language) => language.extensions).join(", ");
}

/** An operation and the language it lacks or has twice. */
export interface ExampleGap {
  operationId: string;
  language: ExampleLanguage;
}

export interface ExampleCoverage {
  /** Operations without an example in a language their kind needs. */
  missing: ExampleGap[];
  /** Operations with more than one file in one language (`sendMessage.ts` and `sendMessage.mts`). */
  duplicated: ExampleGap[];
  /** Files named after no operation of the bundle (renamed or removed operations), or in a language it has no use for. */
  orphaned: string[];
}

/** Compares the operations of a bundle with the example files; every list is empty when each has what it needs. */
export function checkCoverage(
  operations: readonly Pick<OperationEntry, "operationId" | "kind">[],
  examples: ReadonlyMap<string, readonly ExampleFile[]>,
): ExampleCoverage {
  const coverage: ExampleCoverage = { missing: [], duplicated: [], orphaned: [] };
  const kinds = new Map(operations.map((operation) => [operation.operationId, operation.kind]));
  for (const { operationId, kind } of operations) {
    const files = examples.get(operationId) ?? [];
    for (const language of EXAMPLE_LANGUAGES.filter((candidate) => candidate.kinds.includes(kind))) {
      const count = files.filter((file) => file.language === language.id).length;
      if (count === 0) {
        coverage.missing.push({ operationId, language });
      } else if (count > 1) {
        coverage.duplicated.push({ operationId, language });
      }
    }
  }
  for (const [operationId, files] of examples) {
    const kind = kinds.get(operationId);
    for (const file of files) {
      const language = EXAMPLE_LANGUAGES.find((candidate) => candidate.id === file.language);
      if (kind === undefined || !language?.kinds.includes(kind)) {
        coverage.orphaned.push(file.path);
      }
    }
  }
  return coverage;
}

export function describeCoverageProblems(api: string, coverage: ExampleCoverage): string[] {
  const problems: string[] = [];
  for (const { operationId, language } of coverage.missing) {
    const file = `examples/${api}/${operationId}${language.extensions[0]}`;
    problems.push(`${api}: operation ${operationId} has no ${language.label} example; add ${file}`);
  }
  for (const { operationId, language } of coverage.duplicated) {
    problems.push(`${api}: operation ${operationId} has more than one ${language.label} example; keep one`);
  }
  for (const path of coverage.orphaned) {
    const file = `examples/${api}/${basename(path)}`;
    problems.push(`${api}: ${file} is the example of no operation of the bundle in its language; rename or remove it`);
  }
  return problems;
}
