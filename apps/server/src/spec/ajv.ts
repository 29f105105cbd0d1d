import type { Options } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import type { JsonSchema, OpenApiDocument } from "./spec-bundle.ts";

// ajv-formats is CommonJS; under NodeNext its default import is the module object.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

/**
 * Base64 with padding: whole groups of four. Checked as one character class and a length, without a repeated group,
 * which the regular expression engine would backtrack through by recursion and overflow the stack on a few MiB.
 */
const isBase64 = (data: string) => data.length % 4 === 0 && /^[A-Za-z0-9+/]*={0,2}$/.test(data);

/**
 * An Ajv (JSON Schema 2020-12) instance holding a whole bundled spec under `documentId`, so schemas compiled from it
 * may `$ref` anything in the document. `contentEncoding: base64` is enforced, not just annotated, because the specs
 * promise a 400 for attachment content that is not base64.
 */
export function createSpecAjv(document: OpenApiDocument, documentId: string, options: Options = {}): Ajv2020 {
  const ajv = new Ajv2020({
    allErrors: true,
    verbose: true,
    // The bundle is an OpenAPI document, not a pure schema: its non-schema keywords are expected.
    strictSchema: false,
    strictTypes: false,
    strictTuples: false,
    ...options,
  });
  addFormats(ajv);
  ajv.removeKeyword("contentEncoding");
  ajv.addKeyword({
    keyword: "contentEncoding",
    schemaType: "string",
    errors: true,
    validate: function contentEncoding(encoding: string, data: unknown) {
      return encoding !== "base64" || typeof data !== "string" || isBase64(data);
    },
  });
  ajv.addSchema(document, documentId);
  return ajv;
}

/** A copy of a schema taken out of the document, with its local `#/...` references pointed back into the document. */
export function detachSchema(schema: unknown, documentId: string): JsonSchema {
  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) {
      return node.map(visit);
    }
    if (node !== null && typeof node === "object") {
      const out: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(node)) {
        out[key] =
          key === "$ref" && typeof value === "string" && value.startsWith("#") ? documentId + value : visit(value);
      }
      return out;
    }
    return node;
  };
  return visit(schema) as JsonSchema;
}
