import type { JsonSchema, OpenApiDocument } from "../src/spec/spec-bundle.ts";
import { dereference } from "../src/spec/spec-bundle.ts";
import type { FormattedValue } from "./format-locations.ts";
import { formattedValues } from "./format-locations.ts";
import type { SentRequest } from "./sent-request.ts";
import { strictFormatProblem } from "./strict-formats.ts";

/** What the strict reading of the formats finds wrong with one accepted exchange. */
export interface FormatFindings {
  /** Values of the request, at `format` locations, that the server accepted but are not of their format. */
  accepted: string[];
  /** Values of the 2xx answer, at `format` locations, that are not of their format. */
  answered: string[];
  /** Inbox addresses in the 2xx answer outside the domains the server hosts. */
  unhosted: string[];
}

interface ResponseObject {
  content?: Record<string, { schema?: JsonSchema }>;
}

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
};

const describe = ({ at, format, value }: FormattedValue, problem: string) =>
  `${at || "/"} '${value.slice(0, 120)}' as ${format}: ${problem}`;

function problems(values: FormattedValue[]): string[] {
  return values.flatMap((found) => {
    const problem = strictFormatProblem(found.format, found.value);
    return problem === null ? [] : [describe(found, problem)];
  });
}

/** Every Inbox record (it has `pod_id` and `inbox_id`) in an answer. */
function inboxAddresses(value: unknown, into: string[] = []): string[] {
  if (Array.isArray(value)) {
    for (const item of value) {
      inboxAddresses(item, into);
    }
  } else if (value !== null && typeof value === "object") {
    const record = value as Record<string, unknown>;
    if (typeof record.inbox_id === "string" && typeof record.pod_id === "string") {
      into.push(record.inbox_id);
    }
    for (const item of Object.values(record)) {
      inboxAddresses(item, into);
    }
  }
  return into;
}

/**
 * Judges accepted requests and their answers by the strict reading of every `format` (strict-formats.ts), and inbox
 * records by the domains the server hosts (null where the service has no inboxes).
 */
export function createFormatChecks(document: OpenApiDocument, hostedDomains: readonly string[] | null) {
  const hosted = new Set((hostedDomains ?? []).map((domain) => domain.toLowerCase()));
  const responseSchema = (sent: SentRequest, status: number): JsonSchema | undefined => {
    const operation = document.paths[sent.operation.path]?.[sent.operation.method.toLowerCase() as "get"];
    const node = operation?.responses[String(status)] as ResponseObject | undefined;
    return node === undefined
      ? undefined
      : dereference<ResponseObject>(document, node).content?.["application/json"]?.schema;
  };

  return function judgeFormats(sent: SentRequest, status: number, answerBody: unknown): FormatFindings {
    const sentValues: FormattedValue[] = [];
    for (const parameter of sent.operation.pathParameters) {
      const value = sent.pathValues[parameter.name];
      if (value !== undefined) {
        sentValues.push(
          ...formattedValues(document, parameter.schema, value).map((found) => ({
            ...found,
            at: `path ${parameter.name}`,
          })),
        );
      }
    }
    for (const parameter of sent.operation.queryParameters) {
      for (const value of sent.url.searchParams.getAll(parameter.name)) {
        sentValues.push(
          ...formattedValues(document, parameter.schema, value).map((found) => ({
            ...found,
            at: `query ${parameter.name}`,
          })),
        );
      }
    }
    if (sent.operation.body !== null && sent.bodyText !== undefined) {
      sentValues.push(...formattedValues(document, sent.operation.body.schema, parseJson(sent.bodyText)));
    }
    const schema = responseSchema(sent, status);
    const answered = schema === undefined ? [] : problems(formattedValues(document, schema, answerBody));
    const unhosted =
      hostedDomains === null
        ? []
        : inboxAddresses(answerBody).filter(
            (address) => !hosted.has(address.slice(address.lastIndexOf("@") + 1).toLowerCase()),
          );
    return { accepted: problems(sentValues), answered, unhosted };
  };
}
