import type { ExampleFile } from "./examples.ts";
import { type CodeSample, listOperations, type OpenAPIDocument } from "./openapi.ts";

export const CODE_SAMPLE_LANG = "ts";

/**
 * A copy of `document` where every operation carries its example as its only `x-codeSamples` entry. The bundle itself
 * is never changed: the samples live in typechecked files and are joined to the spec only for rendering.
 */
export function attachCodeSamples(
  document: OpenAPIDocument,
  examples: ReadonlyMap<string, readonly ExampleFile[]>,
  label: string,
): OpenAPIDocument {
  const copy = structuredClone(document);
  for (const { operationId, operation } of listOperations(copy)) {
    const [example] = examples.get(operationId) ?? [];
    if (example === undefined) {
      throw new Error(`No example for operation ${operationId}`);
    }
    const sample: CodeSample = { lang: CODE_SAMPLE_LANG, label, source: example.source.trimEnd() };
    operation["x-codeSamples"] = [sample];
  }
  return copy;
}
