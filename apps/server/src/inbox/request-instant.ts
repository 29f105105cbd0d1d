import { instantOrProblem } from "../http/request-instant.ts";
import { InboxProblem } from "./inbox-errors.ts";

/** A request's date-time as epoch milliseconds, or a 400 in the inbox envelope naming `field` (see instantOrProblem). */
export function requestInstant(value: string, field: string): number {
  return instantOrProblem(value, field, InboxProblem);
}
