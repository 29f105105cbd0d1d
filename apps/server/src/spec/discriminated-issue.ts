import type { ErrorObject } from "ajv";
import type { Ajv2020 } from "ajv/dist/2020.js";
import type { IssueLocation, ValidationIssue } from "./validation-issue.ts";
import { fieldOf, selectIssue } from "./validation-issue.ts";

/** An OpenAPI discriminator: the property whose value names the `oneOf` branch, and the branch of each value. */
interface Discriminator {
  propertyName: string;
  mapping: Record<string, string>;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function discriminatorOf(error: ErrorObject): Discriminator | undefined {
  const discriminator = isRecord(error.parentSchema) ? error.parentSchema.discriminator : undefined;
  return error.keyword === "oneOf" &&
    isRecord(discriminator) &&
    typeof discriminator.propertyName === "string" &&
    isRecord(discriminator.mapping)
    ? (discriminator as unknown as Discriminator)
    : undefined;
}

/**
 * Explains a failed validation where a `oneOf` has a discriminator. Ajv reports every branch's errors, and the first
 * of them belongs to whichever branch comes first (`action.status: is required` for `{"type": "explode"}`); the
 * discriminator says which branch was meant. So a missing or unknown tag is the issue, naming the accepted values,
 * and a known tag is explained by its own branch alone. Without a discriminator, as `selectIssue`.
 */
export function explainFailure(
  ajv: Ajv2020,
  documentId: string,
  errors: readonly ErrorObject[],
  location: IssueLocation,
  prefix: string | null,
  fallbackHint: string,
): ValidationIssue {
  // The outermost: the branch it picks holds the inner ones.
  const discriminated = errors
    .filter((error) => discriminatorOf(error) !== undefined && isRecord(error.data))
    .sort((a, b) => a.instancePath.length - b.instancePath.length)[0];
  const discriminator = discriminated === undefined ? undefined : discriminatorOf(discriminated);
  if (discriminated === undefined || discriminator === undefined) {
    return selectIssue(errors, location, prefix, fallbackHint);
  }
  const data = discriminated.data as Record<string, unknown>;
  const base = fieldOf(discriminated, prefix);
  const field = base ? `${base}.${discriminator.propertyName}` : discriminator.propertyName;
  const tag = data[discriminator.propertyName];
  const branch =
    typeof tag === "string" && Object.hasOwn(discriminator.mapping, tag) ? (discriminator.mapping[tag] ?? "") : "";
  const validateBranch = branch === "" ? undefined : ajv.getSchema(`${documentId}${branch}`);
  if (validateBranch === undefined) {
    const tags = Object.keys(discriminator.mapping).join(", ");
    const description = (discriminated.parentSchema as Record<string, unknown>).description;
    return {
      location,
      field,
      code: tag === undefined ? "REQUIRED" : "INVALID_VALUE",
      keyword: "discriminator",
      message: tag === undefined ? `${field}: is required, one of ${tags}.` : `${field}: must be one of ${tags}.`,
      hint: typeof description === "string" ? description : fallbackHint,
    };
  }
  if (validateBranch(data)) {
    return selectIssue(errors, location, prefix, fallbackHint);
  }
  return explainFailure(ajv, documentId, validateBranch.errors ?? [], location, base, fallbackHint);
}
