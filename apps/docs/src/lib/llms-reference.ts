import { dereference, isReference, walkOperations } from "@pigeonhole/openapi-walker";
import type { OpenAPIDocument, Operation } from "./openapi.ts";
import { openAPIFileRoute } from "./openapi-files.ts";
import type { ReferenceSpec } from "./reference-specs.ts";
import { absoluteUrl } from "./site-address.ts";

// The API reference as text for language models: each operation's summary, address, description, parameters, body
// fields and answers, read from the bundle. The schemas in full are one link away, in the OpenAPI file.

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: Schema;
}

interface Schema {
  $ref?: string;
  type?: string | string[];
  items?: Schema;
  oneOf?: Schema[];
  anyOf?: Schema[];
  allOf?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
  description?: string;
}

interface MediaType {
  schema?: Schema;
}

interface Body {
  description?: string;
  required?: boolean;
  content?: Record<string, MediaType>;
}

/** One operation's page in the reference, as the model reads it. */
export interface ReferenceOperation {
  operationId: string;
  /** `POST /v0/inboxes` for a path, `webhook message.received` for a webhook event. */
  address: string;
  summary: string;
  /** Root-absolute route of its page. */
  route: string;
  markdown: string;
}

/** The route starlight-openapi gives an operation's page. */
export function operationRoute(
  spec: Pick<ReferenceSpec, "base">,
  kind: "path" | "webhook",
  operationId: string,
): string {
  return `/${spec.base}/${kind === "path" ? "operations" : "webhooks"}/${operationId.toLowerCase()}/`;
}

/** A schema in a few words: its component's name, its type, or its alternatives. */
export function describeSchema(schema: Schema | undefined): string {
  if (schema === undefined) {
    return "any";
  }
  if (schema.$ref) {
    return schema.$ref.slice(schema.$ref.lastIndexOf("/") + 1);
  }
  const alternatives = schema.oneOf ?? schema.anyOf;
  if (alternatives) {
    return alternatives.map(describeSchema).join(" | ");
  }
  if (schema.allOf?.length === 1) {
    return describeSchema(schema.allOf[0]);
  }
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : ["object"];
  return types.map((type) => (type === "array" ? `array of ${describeSchema(schema.items)}` : type)).join(" | ");
}

/** Text on one line, for a list item. */
function oneLine(text: string | undefined): string {
  return (text ?? "").replace(/\s*\n\s*/g, " ").trim();
}

function listItem(name: string, facts: string[], description: string | undefined): string {
  const line = oneLine(description);
  return `- \`${name}\` (${facts.join(", ")})${line ? `: ${line}` : ""}`;
}

function renderBody(document: OpenAPIDocument, body: Body): string[] {
  const lines = ["### Request body", ""];
  if (body.description) {
    lines.push(oneLine(body.description), "");
  }
  for (const [mediaType, media] of Object.entries(body.content ?? {})) {
    lines.push(`\`${mediaType}\`: ${describeSchema(media.schema)}${body.required ? " (required)" : ""}`, "");
    const schema = media.schema ? dereference<Schema>(document, media.schema as Schema) : undefined;
    const required = new Set(schema?.required ?? []);
    for (const [name, property] of Object.entries(schema?.properties ?? {})) {
      const resolved = isReference(property) ? dereference<Schema>(document, property as Schema) : property;
      const facts = [describeSchema(property), required.has(name) ? "required" : "optional"];
      lines.push(listItem(name, facts, property.description ?? resolved.description));
    }
    lines.push("");
  }
  return lines;
}

function renderResponses(document: OpenAPIDocument, responses: Record<string, unknown>): string[] {
  const lines = ["### Responses", ""];
  for (const [status, entry] of Object.entries(responses)) {
    const response = dereference<{ description?: string; content?: Record<string, MediaType> }>(
      document,
      entry as { description?: string },
    );
    const bodies = Object.entries(response.content ?? {}).map(
      ([mediaType, media]) => `\`${mediaType}\` ${describeSchema(media.schema)}`,
    );
    const shape = bodies.length > 0 ? ` (${bodies.join(", ")})` : "";
    lines.push(`- \`${status}\`${shape}: ${oneLine(response.description)}`);
  }
  lines.push("");
  return lines;
}

/** Every operation of a bundle, as Markdown with its page's absolute URL. */
export function renderReferenceOperations(spec: ReferenceSpec, document: OpenAPIDocument): ReferenceOperation[] {
  const walked = [
    ...walkOperations<Operation, Parameter>(document, document.paths).map((item) => ({
      ...item,
      kind: "path" as const,
    })),
    ...walkOperations<Operation, Parameter>(document, document.webhooks).map((item) => ({
      ...item,
      kind: "webhook" as const,
    })),
  ];
  return walked.flatMap(({ path, method, operation, parameters, kind }) => {
    if (!operation.operationId) {
      return [];
    }
    const summary = operation.summary ?? operation.operationId;
    const route = operationRoute(spec, kind, operation.operationId);
    const address = kind === "path" ? `${method.toUpperCase()} ${path}` : `webhook ${path}`;
    const lines = [`## ${summary}`, "", `\`${address}\`: ${absoluteUrl(route)}`, ""];
    if (typeof operation.description === "string") {
      lines.push(operation.description.trim(), "");
    }
    if (parameters.length > 0) {
      lines.push("### Parameters", "");
      for (const parameter of parameters) {
        const facts = [parameter.in, describeSchema(parameter.schema), parameter.required ? "required" : "optional"];
        lines.push(listItem(parameter.name, facts, parameter.description));
      }
      lines.push("");
    }
    if (operation.requestBody) {
      lines.push(...renderBody(document, dereference<Body>(document, operation.requestBody as Body)));
    }
    if (operation.responses) {
      lines.push(...renderResponses(document, operation.responses as Record<string, unknown>));
    }
    return [{ operationId: operation.operationId, address, summary, route, markdown: lines.join("\n").trim() }];
  });
}

/**
 * The reference of one API for `llms-full.txt`: where its pages and its OpenAPI file are, the API's own introduction
 * (authentication, errors, limits), then every operation.
 */
export function renderReferenceSection(spec: ReferenceSpec, document: OpenAPIDocument): string {
  const header = [
    `# ${spec.label} reference`,
    "",
    `Overview: ${absoluteUrl(`/${spec.base}/`)}`,
    `OpenAPI document (bundled, all schemas): ${absoluteUrl(openAPIFileRoute(spec))}`,
    ...(document.info.description ? ["", document.info.description.trim()] : []),
  ].join("\n");
  return [header, ...renderReferenceOperations(spec, document).map((operation) => operation.markdown)].join("\n\n");
}
