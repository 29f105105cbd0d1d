import type { ParameterObject } from "./spec-bundle.ts";
import type { IssueLocation, ValidationIssue } from "./validation-issue.ts";
import { rangeRule } from "./validation-issue.ts";

/** How an integer is written in a path, query string or header: decimal digits, with an optional minus sign. */
const DECIMAL_INTEGER = /^-?[0-9]+$/;

const isIntegerParameter = (parameter: ParameterObject) => parameter.schema.type === "integer";

/**
 * Finds a text value of an integer parameter that is not an exact integer written in decimal digits. Ajv's type
 * coercion would take `1e3`, `0x10`, ` 5` or `2.0000000000000001` and round them, and turns digits past 1.8e308
 * into Infinity, which then escapes the range keywords; such values are refused here instead. Every integer
 * parameter's spec maximum is a safe integer, so a value a double cannot hold exactly is out of range.
 */
export function findNonDecimalInteger(
  location: Exclude<IssueLocation, "body">,
  parameters: readonly ParameterObject[],
  values: Record<string, unknown>,
): ValidationIssue | null {
  for (const parameter of parameters.filter(isIntegerParameter)) {
    const value = values[parameter.name];
    for (const text of Array.isArray(value) ? value : [value]) {
      if (typeof text !== "string") {
        continue;
      }
      const hint = parameter.description ?? "Check the parameters of this operation.";
      if (!DECIMAL_INTEGER.test(text)) {
        const message = `${parameter.name}: must be an integer written in decimal digits.`;
        return { location, field: parameter.name, code: "INVALID_TYPE", keyword: "type", message, hint };
      }
      if (!Number.isSafeInteger(Number(text))) {
        const message = `${parameter.name}: ${rangeRule(parameter.schema)}.`;
        return { location, field: parameter.name, code: "INVALID_VALUE", keyword: "maximum", message, hint };
      }
    }
  }
  return null;
}
