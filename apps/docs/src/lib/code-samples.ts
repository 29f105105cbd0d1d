import { EXAMPLE_LANGUAGES, type ExampleFile } from "./examples.ts";
import { type CodeSample, listOperations, type OpenAPIDocument } from "./openapi.ts";

/**
 * A copy of `document` where every operation carries its examples as its `x-codeSamples`, one per language its kind
 * needs, in the order of `EXAMPLE_LANGUAGES`. The bundle itself is never changed: the samples live in files that the
 * docs tests typecheck or run, and are joined to the spec only for rendering.
 */
export function attachCodeSamples(
  document: OpenAPIDocument,
  examples: ReadonlyMap<string, readonly ExampleFile[]>,
): OpenAPIDocument {
  const copy = structuredClone(document);
  for (const { operationId, kind, operation } of listOperations(copy)) {
    const files = examples.get(operationId) ?? [];
    const samples: CodeSample[] = [];
    for (const language of EXAMPLE_LANGUAGES.filter((candidate) => candidate.kinds.includes(kind))) {
      const example = files.find((file) => file.language === language.id);
      if (example === undefined) {
        throw new Error(`No ${language.label} example for operation ${operationId}`);
      }
      samples.push({ lang: language.lang, label: language.label, source: example.source.trimEnd() });
    }
    operation["x-codeSamples"] = samples;
  }
  return copy;
}
