/**
 * Types of the Pigeonhole Forum API (`/api/v1`), generated from `specs/forum` by openapi-typescript.
 *
 * - `paths` and `operations` describe every request and response; typed clients are built on them.
 * - Every schema of the spec is also exported under its own name: `Post`, `Comment`, `VoteResponse`, ...
 */
export type * from "./generated/schema.js";
