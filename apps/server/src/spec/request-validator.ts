import type { ValidateFunction } from "ajv";
import { createSpecAjv, detachSchema } from "./ajv.ts";
import { findNonDecimalInteger } from "./decimal-integer.ts";
import { explainFailure } from "./discriminated-issue.ts";
import { findNulCharacter } from "./nul-character.ts";
import type { HttpMethod, JsonSchema, OpenApiDocument, ParameterObject } from "./spec-bundle.ts";
import { documentOperations, pointerSegment } from "./spec-bundle.ts";
import type { IssueLocation, ValidationIssue } from "./validation-issue.ts";
import { selectIssue } from "./validation-issue.ts";

/** A request as it arrived, before validation. `body` is undefined when the request had none. */
export interface RawRequest {
  path: Record<string, string>;
  query: Record<string, string | string[]>;
  header(name: string): string | undefined;
  body: unknown;
}

/** A request that matches its operation's schemas, with query defaults from the spec filled in. */
export interface ValidatedRequest {
  path: Record<string, unknown>;
  query: Record<string, unknown>;
  headers: Record<string, unknown>;
  body: unknown;
}

export type ValidationResult = { ok: true; request: ValidatedRequest } | { ok: false; issue: ValidationIssue };

/** One operation of a spec: where it lives and how to check its requests. */
export interface SpecOperation {
  operationId: string;
  method: HttpMethod;
  /** The spec's path template, such as `/v0/inboxes/{inbox_id}`. */
  path: string;
  /** Whether anyone may call it without an API key (the spec gives it `security: []`). */
  public: boolean;
  validate(request: RawRequest): ValidationResult;
}

interface ParameterGroup {
  location: Exclude<IssueLocation, "body">;
  parameters: ParameterObject[];
  validate: ValidateFunction;
}

function parameterSchema(parameters: ParameterObject[], documentId: string): JsonSchema {
  return {
    type: "object",
    properties: Object.fromEntries(parameters.map((p) => [p.name, detachSchema(p.schema, documentId)])),
    required: parameters.filter((p) => p.required).map((p) => p.name),
  };
}

/**
 * Compiles validators for every operation under `paths` of a bundled spec: path, query and header parameters (query
 * strings coerced to the declared types, integers only from decimal digits, defaults applied) and the JSON request
 * body. Nothing is restated by hand; a change to the spec changes what is accepted.
 */
export function compileSpecOperations(document: OpenApiDocument, documentId: string): SpecOperation[] {
  const bodyAjv = createSpecAjv(document, documentId);
  // "array": a parameter that may repeat (a list) is a list also when it comes once; a scalar one sent twice stays a
  // list of two, and fails.
  const parameterAjv = createSpecAjv(document, documentId, { coerceTypes: "array", useDefaults: true });
  const operations: SpecOperation[] = [];

  for (const { path, method, operation, parameters } of documentOperations(document)) {
    const groups: ParameterGroup[] = (["path", "query", "header"] as const).map((location) => {
      const inLocation = parameters.filter((p) => p.in === location);
      return {
        location,
        parameters: inLocation,
        validate: parameterAjv.compile(parameterSchema(inLocation, documentId)),
      };
    });
    const requestBody = operation.requestBody;
    const bodySchemaRef = `${documentId}#/paths/${pointerSegment(path)}/${method}/requestBody/content/application~1json/schema`;
    const validateBody = requestBody?.content["application/json"] ? bodyAjv.compile({ $ref: bodySchemaRef }) : null;
    const bodyHint =
      (requestBody?.content["application/json"]?.schema.description as string | undefined) ?? "Send a JSON body.";

    operations.push({
      operationId: operation.operationId,
      method,
      path,
      public: Array.isArray(operation.security) && operation.security.length === 0,
      validate(request) {
        const values: Record<Exclude<IssueLocation, "body">, Record<string, unknown>> = {
          path: { ...request.path },
          query: { ...request.query },
          header: {},
        };
        for (const parameter of groups[2]?.parameters ?? []) {
          const value = request.header(parameter.name);
          if (value !== undefined) {
            values.header[parameter.name] = value;
          }
        }
        for (const group of groups) {
          const data = values[group.location];
          const nonDecimal = findNonDecimalInteger(group.location, group.parameters, data);
          if (nonDecimal) {
            return { ok: false, issue: nonDecimal };
          }
          if (!group.validate(data)) {
            const first = group.validate.errors?.[0];
            const parameter = group.parameters.find((p) => first && first.instancePath === `/${p.name}`);
            const hint = parameter?.description ?? "Check the parameters of this operation.";
            return { ok: false, issue: selectIssue(group.validate.errors ?? [], group.location, null, hint) };
          }
          const nul = findNulCharacter(group.location, data);
          if (nul) {
            return { ok: false, issue: nul };
          }
        }
        if (request.body === undefined) {
          if (requestBody?.required) {
            return {
              ok: false,
              issue: {
                location: "body",
                field: null,
                code: "REQUIRED",
                keyword: "required",
                message: "A JSON request body is required.",
                hint: bodyHint,
              },
            };
          }
        } else if (validateBody && !validateBody(request.body)) {
          return {
            ok: false,
            issue: explainFailure(bodyAjv, documentId, validateBody.errors ?? [], "body", null, bodyHint),
          };
        } else {
          const nul = findNulCharacter("body", request.body);
          if (nul) {
            return { ok: false, issue: nul };
          }
        }
        return {
          ok: true,
          request: { path: values.path, query: values.query, headers: values.header, body: request.body },
        };
      },
    });
  }
  return operations;
}
