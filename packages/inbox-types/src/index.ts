/**
 * Types of the Pigeonhole Inbox API (`/v0`), generated from `specs/inbox` by openapi-typescript
 * (`paths`, `operations`, the schemas) and openapi-call-table (`calls`).
 *
 * - `paths`, `operations` and `webhooks` describe every request and response.
 * - `calls` spells out each operation's call types (init, data, errors, list item) by method and path; the
 *   client reads a call's types from it rather than deriving them from `paths` on every call.
 * - Every schema of the spec is also exported under its own name: `Inbox`, `Message`, `Thread`, `Webhook`, ...
 */
import type { webhooks } from "./generated/schema.js";

export type * from "./generated/calls.js";
export type * from "./generated/schema.js";

/** Every event body a webhook can receive, discriminated by `event_type`; derived from the spec's `webhooks`. */
export type WebhookEvent = {
  [Name in keyof webhooks]: webhooks[Name]["post"] extends {
    requestBody?: { content: { "application/json": infer B } };
  }
    ? B
    : never;
}[keyof webhooks];
