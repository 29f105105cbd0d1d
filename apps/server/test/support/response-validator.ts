import type { ValidateFunction } from "ajv";
import { createSpecAjv, detachSchema } from "../../src/spec/ajv.ts";
import type { OpenApiDocument, ServiceName } from "../../src/spec/spec-bundle.ts";
import { dereference, loadSpecBundle, pointerSegment } from "../../src/spec/spec-bundle.ts";

interface ResponseObject {
  headers?: Record<string, { $ref?: string; required?: boolean; schema?: unknown }>;
  content?: Record<string, { schema: unknown }>;
}

/** A response as observed, to check against the spec. */
export interface ObservedResponse {
  method: string;
  /** The spec's path template, such as `/v0/inboxes/{inbox_id}`. */
  specPath: string;
  status: number;
  headers: Headers;
  /** The parsed JSON body; for other content, its bytes. */
  body: unknown;
}

/**
 * The headers every response carries, success or error. Each spec documents them once, in its overview's "Response
 * headers" section, rather than under every response, so they are checked here by name and form.
 */
const EVERY_RESPONSE_HEADERS: Record<string, RegExp> = {
  "X-Request-Id": /^\S+$/,
  "X-RateLimit-Limit": /^[1-9][0-9]*$/,
  "X-RateLimit-Remaining": /^[0-9]+$/,
  "X-RateLimit-Reset": /^[1-9][0-9]*$/,
};

const deref = <T>(document: OpenApiDocument, node: unknown): T => dereference(document, node as T);

/**
 * Checks responses against the bundled spec: the status must be documented for the operation, the JSON body must
 * match that status's schema, every required header must be present and match its schema, and the headers of every
 * response must be there. Answers the list of
 * violations (empty when the response conforms).
 */
export function createResponseValidator(service: ServiceName) {
  const document = loadSpecBundle(service);
  const id = `${service}-responses`;
  const bodyAjv = createSpecAjv(document, id);
  const headerAjv = createSpecAjv(document, `${id}-headers`, { coerceTypes: true });
  const compiled = new Map<string, ValidateFunction>();
  const compile = (ajv: typeof bodyAjv, documentId: string, key: string, schema: unknown) => {
    let validate = compiled.get(key);
    if (!validate) {
      validate = ajv.compile(detachSchema(schema, documentId));
      compiled.set(key, validate);
    }
    return validate;
  };

  return function validate(observed: ObservedResponse): string[] {
    const where = `${observed.method} ${observed.specPath} -> ${observed.status}`;
    const operation = document.paths[observed.specPath]?.[observed.method.toLowerCase() as "get"];
    if (!operation) {
      return [`${where}: no such operation in the ${service} spec`];
    }
    const responseNode = operation.responses[String(observed.status)];
    if (!responseNode) {
      return [`${where}: status not documented`];
    }
    const response = deref<ResponseObject>(document, responseNode);
    const violations: string[] = [];
    for (const [name, form] of Object.entries(EVERY_RESPONSE_HEADERS)) {
      const value = observed.headers.get(name);
      if (value === null || !form.test(value)) {
        violations.push(`${where}: header ${name}${value === null ? " is missing" : `=${value} is malformed`}`);
      }
    }
    for (const [name, headerNode] of Object.entries(response.headers ?? {})) {
      const header = deref<{ required?: boolean; schema?: unknown }>(document, headerNode);
      const value = observed.headers.get(name);
      if (value === null) {
        if (header.required) {
          violations.push(`${where}: missing header ${name}`);
        }
        continue;
      }
      // Header values are text: the wrapper object lets Ajv coerce them to the schema's type.
      const wrapped = compile(headerAjv, `${id}-headers`, `header:${name}:${observed.specPath}:${observed.status}`, {
        type: "object",
        properties: { value: header.schema ?? {} },
      });
      if (!wrapped({ value })) {
        violations.push(`${where}: header ${name}=${value} ${headerAjv.errorsText(wrapped.errors)}`);
      }
    }
    const schema = response.content?.["application/json"]?.schema;
    const otherTypes = Object.keys(response.content ?? {}).filter((type) => type !== "application/json");
    // A download that documents a JSON alternative answers bytes unless the request asked for JSON.
    if (otherTypes.length > 0 && (schema === undefined || observed.body instanceof Uint8Array)) {
      // Bytes: `application/octet-stream` stands for the file's own media type, any other is sent as documented.
      const contentType = observed.headers.get("Content-Type") ?? "";
      if (!otherTypes.some((type) => type === "application/octet-stream" || contentType.startsWith(type))) {
        violations.push(`${where}: Content-Type ${contentType} is not one of ${otherTypes.join(", ")}`);
      }
      if (!(observed.body instanceof Uint8Array)) {
        violations.push(`${where}: the body is not bytes`);
      }
      return violations;
    }
    if (schema === undefined) {
      if (observed.body !== undefined && observed.body !== "") {
        violations.push(`${where}: a body was sent where the spec documents none`);
      }
      return violations;
    }
    const pointer = `#/paths/${pointerSegment(observed.specPath)}/${observed.method.toLowerCase()}/responses/${observed.status}`;
    const validateBody = compile(bodyAjv, id, `body:${pointer}`, schema);
    if (!validateBody(observed.body)) {
      violations.push(`${where}: body ${bodyAjv.errorsText(validateBody.errors)} in ${JSON.stringify(observed.body)}`);
    }
    return violations;
  };
}
