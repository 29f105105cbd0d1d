import type { ErrorObject } from "ajv";

/** The reason a request value was refused, in the vocabulary of the inbox spec's `details.code`. */
export type IssueCode = "REQUIRED" | "INVALID_TYPE" | "INVALID_VALUE" | "TOO_LONG" | "INVALID_EMAIL";

export type IssueLocation = "path" | "query" | "header" | "body";

/** One problem with a request, independent of any service's error envelope. */
export interface ValidationIssue {
  location: IssueLocation;
  /** Dotted name of the offending field (`attachments.0.content`, `limit`); null for the body as a whole. */
  field: string | null;
  code: IssueCode;
  /** The JSON Schema keyword that failed, so a service can refine the code (e.g. too many recipients). */
  keyword: string;
  message: string;
  hint: string;
}

type Schema = Record<string, unknown>;

const TYPE_NAMES: Record<string, string> = {
  string: "a string",
  integer: "an integer",
  number: "a number",
  boolean: "true or false",
  array: "a list",
  object: "an object",
  null: "null",
};

const FORMAT_NAMES: Record<string, string> = {
  uri: "absolute URL",
  uuid: "UUID",
  hostname: "domain name",
  "date-time": "ISO 8601 date-time",
};

const describeValue = (value: unknown): string => {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
};

const joinField = (base: string | null, key: string): string => (base ? `${base}.${key}` : key);

/** The dotted field an Ajv error is about, under `prefix`. */
export function fieldOf(error: ErrorObject, prefix: string | null): string | null {
  const segments = error.instancePath
    .split("/")
    .slice(1)
    .map((s) => s.replaceAll("~1", "/").replaceAll("~0", "~"));
  const path = segments.length > 0 ? segments.join(".") : null;
  return prefix ? (path ? `${prefix}.${path}` : prefix) : path;
}

const asSchema = (value: unknown): Schema => (value !== null && typeof value === "object" ? (value as Schema) : {});

function describeSchema(schema: Schema): string | undefined {
  return typeof schema.description === "string" ? schema.description : undefined;
}

function lengthRule(schema: Schema, unit: string): string {
  const min = schema.minLength ?? schema.minItems;
  const max = schema.maxLength ?? schema.maxItems;
  if (min !== undefined && max !== undefined) {
    return `must be ${min} to ${max} ${unit}`;
  }
  return max !== undefined ? `must be at most ${max} ${unit}` : `must be at least ${min} ${unit}`;
}

/** "must be an integer from 1 to 100", from the schema's bounds. */
export function rangeRule(schema: Schema): string {
  const kind = schema.type === "integer" ? "an integer" : "a number";
  const { minimum, maximum } = schema;
  if (minimum !== undefined && maximum !== undefined) {
    return `must be ${kind} from ${minimum} to ${maximum}`;
  }
  return minimum !== undefined ? `must be ${kind} of ${minimum} or more` : `must be ${kind} of at most ${maximum}`;
}

function formatRule(format: string, value: unknown): { code: IssueCode; rule: string } {
  return format === "email"
    ? { code: "INVALID_EMAIL", rule: `'${describeValue(value)}' is not a valid e-mail address` }
    : { code: "INVALID_VALUE", rule: `'${describeValue(value)}' is not a valid ${FORMAT_NAMES[format] ?? format}` };
}

/** "'Ada Lovelace' is not valid: use 1 to 64 of a-z, ...", or the expression when the spec gives no words for it. */
function patternRule(schema: Schema, value: unknown, pattern: string): string {
  const words = schema["x-pattern-rule"];
  return typeof words === "string"
    ? `'${describeValue(value)}' is not valid: use ${words}`
    : `'${describeValue(value)}' does not match the pattern ${pattern}`;
}

/** Translates one Ajv error into an issue with a plain-language message naming the field. */
function toIssue(
  error: ErrorObject,
  location: IssueLocation,
  prefix: string | null,
  fallbackHint: string,
): ValidationIssue {
  const parent = asSchema(error.parentSchema);
  const params = error.params as Record<string, unknown>;
  let field = fieldOf(error, prefix);
  let code: IssueCode = "INVALID_VALUE";
  let rule: string;
  let hint = describeSchema(parent) ?? fallbackHint;
  switch (error.keyword) {
    case "required": {
      const missing = String(params.missingProperty);
      field = joinField(field, missing);
      code = "REQUIRED";
      rule = "is required";
      hint = describeSchema(asSchema(asSchema(parent.properties)[missing])) ?? hint;
      break;
    }
    case "additionalProperties": {
      field = joinField(field, String(params.additionalProperty));
      rule = "is not an accepted field";
      hint = `Send only the documented fields: ${Object.keys(asSchema(parent.properties)).join(", ")}.`;
      break;
    }
    case "type": {
      code = "INVALID_TYPE";
      const types = String(params.type).split(",");
      rule = `must be ${types.map((t) => TYPE_NAMES[t] ?? t).join(" or ")}`;
      break;
    }
    case "format":
      ({ code, rule } = formatRule(String(params.format), error.data));
      break;
    case "maxLength":
      code = "TOO_LONG";
      rule = lengthRule(parent, "characters");
      break;
    case "minLength":
      rule = lengthRule(parent, "characters");
      break;
    case "maxItems":
      code = "TOO_LONG";
      rule = lengthRule(parent, "items");
      break;
    case "minItems":
      rule = lengthRule(parent, "items");
      break;
    case "minimum":
    case "maximum":
    case "exclusiveMinimum":
    case "exclusiveMaximum":
      rule = rangeRule(parent);
      break;
    case "enum":
      rule = `must be one of ${(params.allowedValues as unknown[]).map(String).join(", ")}`;
      break;
    case "const":
      rule = `must be ${JSON.stringify(params.allowedValue)}`;
      break;
    case "pattern":
      // A pattern that narrows a format (the spec's address and domain rules) is reported as that format; one the
      // spec puts in words (`x-pattern-rule`) by those words rather than the expression.
      ({ code, rule } =
        typeof parent.format === "string"
          ? formatRule(parent.format, error.data)
          : { code, rule: patternRule(parent, error.data, String(params.pattern)) });
      break;
    case "uniqueItems":
      rule = "must not hold the same item twice";
      break;
    case "contentEncoding":
      rule = `must be ${String(error.schema)}-encoded`;
      break;
    default:
      rule = error.message ?? "is not valid";
  }
  const subject = field ?? (location === "body" ? "The request body" : "The request");
  return { location, field, code, keyword: error.keyword, message: `${subject}: ${rule}.`, hint };
}

const isCombinator = (error: ErrorObject) => error.keyword === "oneOf" || error.keyword === "anyOf";

/**
 * Picks the error that best explains a failure. Under `oneOf`/`anyOf` every branch reports; a branch that failed only
 * on its `type` says little when another branch matched the type and failed on something specific (such as an
 * address list entry that is not an e-mail address), so such type errors are dropped.
 */
export function selectIssue(
  errors: readonly ErrorObject[],
  location: IssueLocation,
  prefix: string | null,
  fallbackHint: string,
): ValidationIssue {
  const combinatorPaths = new Set(errors.filter(isCombinator).map((e) => e.instancePath));
  const candidates = errors.filter((e) => !isCombinator(e));
  const specific = candidates.filter(
    (e) =>
      !(e.keyword === "type" && combinatorPaths.has(e.instancePath)) ||
      !candidates.some(
        (other) =>
          other.keyword !== "type" &&
          (other.instancePath === e.instancePath || other.instancePath.startsWith(`${e.instancePath}/`)),
      ),
  );
  const chosen = specific[0] ?? candidates[0] ?? errors[0];
  if (!chosen) {
    throw new Error("selectIssue needs at least one error.");
  }
  if (chosen.keyword === "type" && combinatorPaths.has(chosen.instancePath)) {
    // Every branch failed on its type: name all the accepted types at once.
    const types = specific
      .filter((e) => e.keyword === "type" && e.instancePath === chosen.instancePath)
      .flatMap((e) => String((e.params as Record<string, unknown>).type).split(","));
    const merged = { ...chosen, params: { type: [...new Set(types)].join(",") } };
    return toIssue(merged, location, prefix, fallbackHint);
  }
  return toIssue(chosen, location, prefix, fallbackHint);
}
