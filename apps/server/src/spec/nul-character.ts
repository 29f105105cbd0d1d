import type { IssueLocation, ValidationIssue } from "./validation-issue.ts";

/**
 * Finds a string (or object key) holding U+0000. JSON allows the character, but PostgreSQL's text cannot hold it, so
 * the server refuses it on every database alike, rather than store on one what another would reject.
 */
export function findNulCharacter(location: IssueLocation, value: unknown, path: string[] = []): ValidationIssue | null {
  if (typeof value === "string") {
    if (!value.includes("\u0000")) {
      return null;
    }
    const field = path.length > 0 ? path.join(".") : null;
    return {
      location,
      field,
      code: "INVALID_VALUE",
      keyword: "pattern",
      message: `${field ?? "The body"}: must not contain the NUL character (U+0000).`,
      hint: "Remove NUL characters from the text.",
    };
  }
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const issue = findNulCharacter(location, item, [...path, String(index)]);
      if (issue) {
        return issue;
      }
    }
    return null;
  }
  if (value !== null && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      const issue = findNulCharacter(location, key, [...path, key]) ?? findNulCharacter(location, item, [...path, key]);
      if (issue) {
        return issue;
      }
    }
  }
  return null;
}
