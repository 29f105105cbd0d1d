import type { UpdateMessageRequest } from "@pigeonhole/inbox-types";
import { InboxProblem } from "./inbox-errors.ts";

/** Labels the service sets: `sent` on the sender's copy, `received` on a delivered one. */
export const SYSTEM_LABELS: ReadonlySet<string> = new Set(["sent", "received"]);

/** Labels a message may carry besides its system labels. */
export const MAX_OWN_LABELS = 20;

/**
 * Checks an Update Message body and answers the change it asks for, applied to a message's current labels: the
 * removed ones go, the added ones follow the kept ones in the order given. Names a system label, or a label in both
 * lists: a 400 at once. More than {@link MAX_OWN_LABELS} own labels afterwards: a 400 when applied.
 */
export function labelChange(body: UpdateMessageRequest): (labels: string[]) => string[] {
  const add = body.add_labels ?? [];
  const remove = body.remove_labels ?? [];
  for (const [field, labels] of [
    ["add_labels", add],
    ["remove_labels", remove],
  ] as const) {
    const system = labels.find((label) => SYSTEM_LABELS.has(label));
    if (system !== undefined) {
      throw new InboxProblem(400, "SYSTEM_LABEL", `${field}: '${system}' is a system label and cannot be changed.`, {
        field,
      });
    }
  }
  const both = add.find((label) => remove.includes(label));
  if (both !== undefined) {
    throw new InboxProblem(400, "INVALID_VALUE", `'${both}' is in both add_labels and remove_labels.`, {
      field: "remove_labels",
    });
  }
  return (labels) => {
    const kept = labels.filter((label) => !remove.includes(label));
    const next = [...new Set([...kept, ...add])];
    const own = next.filter((label) => !SYSTEM_LABELS.has(label)).length;
    if (own > MAX_OWN_LABELS && own > labels.filter((label) => !SYSTEM_LABELS.has(label)).length) {
      throw new InboxProblem(
        400,
        "TOO_LONG",
        `The message would have ${own} labels of its own; at most ${MAX_OWN_LABELS} are allowed.`,
        { field: "add_labels" },
      );
    }
    return next;
  };
}
