import type { IssueLocation, ValidationIssue } from "./validation-issue.ts";

/** A value still to look at, with the way to it: its key, and the step that holds its parent. */
interface Step {
  value: unknown;
  key: string | null;
  parent: Step | null;
}

/** The dotted path of a step, built once, only for the value that holds the character. */
function pathOf(step: Step): string[] {
  const path: string[] = [];
  for (let at: Step | null = step; at !== null; at = at.parent) {
    if (at.key !== null) {
      path.push(at.key);
    }
  }
  return path.reverse();
}

function nulIssue(location: IssueLocation, path: string[]): ValidationIssue {
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

/**
 * Finds a string (or object key) holding U+0000. JSON allows the character, but PostgreSQL's text cannot hold it, so
 * the server refuses it on every database alike, rather than store on one what another would reject. The walk keeps
 * its own stack, so no nesting depth can exhaust the call stack, and looks at each value once.
 */
export function findNulCharacter(location: IssueLocation, value: unknown): ValidationIssue | null {
  const pending: Step[] = [{ value, key: null, parent: null }];
  for (let step = pending.pop(); step !== undefined; step = pending.pop()) {
    const current = step.value;
    if (typeof current === "string") {
      if (current.includes("\u0000")) {
        return nulIssue(location, pathOf(step));
      }
    } else if (Array.isArray(current)) {
      // Pushed last to first, so the first item is looked at first.
      for (let index = current.length - 1; index >= 0; index--) {
        pending.push({ value: current[index], key: String(index), parent: step });
      }
    } else if (current !== null && typeof current === "object") {
      const entries = Object.entries(current);
      for (let index = entries.length - 1; index >= 0; index--) {
        const [key, item] = entries[index] as [string, unknown];
        // The key is checked before its value.
        pending.push({ value: item, key, parent: step }, { value: key, key, parent: step });
      }
    }
  }
  return null;
}
