import type { EventStreamError, EventSubscription } from "@pigeonhole/inbox-types";
import type { ValidateFunction } from "ajv";
import { createSpecAjv } from "../../spec/ajv.ts";
import type { OpenApiDocument } from "../../spec/spec-bundle.ts";
import { selectIssue } from "../../spec/validation-issue.ts";

/** The codes an `EventStreamError` carries in `details.code`. */
export type EventStreamErrorCode = "INVALID_JSON" | "INVALID_VALUE" | "NOT_FOUND" | "EVENT_NOT_FOUND";

/** A problem with what a client sent on the stream: answered as an `EventStreamError`, then the stream closes. */
export class EventStreamProblem extends Error {
  override name = "EventStreamProblem";
  readonly code: EventStreamErrorCode;
  readonly field: string | null;

  constructor(code: EventStreamErrorCode, message: string, field: string | null = null) {
    super(message);
    this.code = code;
    this.field = field;
  }

  /** The `EventStreamError` message, in the inbox's error envelope. */
  toMessage(): EventStreamError {
    const type = this.code === "NOT_FOUND" || this.code === "EVENT_NOT_FOUND" ? "not_found_error" : "validation_error";
    return { type: "error", error: { type, message: this.message, details: { field: this.field, code: this.code } } };
  }
}

/** Parses a client's text message as a subscription, checked against the spec's `EventSubscription` schema. */
export type ParseSubscription = (text: string) => EventSubscription;

export function compileSubscriptionParser(spec: OpenApiDocument): ParseSubscription {
  const validate: ValidateFunction<EventSubscription> = createSpecAjv(spec, "inbox").compile({
    $ref: "inbox#/components/schemas/EventSubscription",
  });
  return (text) => {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new EventStreamProblem("INVALID_JSON", "The message is not valid JSON.");
    }
    if (!validate(value)) {
      const issue = selectIssue(validate.errors ?? [], "body", null, "Send one subscription.");
      throw new EventStreamProblem(
        "INVALID_VALUE",
        `Not a valid subscription: ${issue.message} Send {"type": "subscribe"} with optional event_types, inbox_ids and after.`,
        issue.field,
      );
    }
    return value;
  };
}
