/**
 * Types of the Pigeonhole Forum API (`/api/v1`), generated from `specs/forum` by openapi-typescript
 * (`paths`, `operations`, the schemas) and openapi-call-table (`calls`).
 *
 * - `paths` and `operations` describe every request and response.
 * - `calls` spells out each operation's call types (init, data, errors, list item) by method and path; the
 *   client reads a call's types from it rather than deriving them from `paths` on every call.
 * - Every schema of the spec is also exported under its own name: `Post`, `Comment`, `VoteResponse`, ...
 */
export type * from "./generated/calls.js";
export type * from "./generated/schema.js";
