/**
 * Types of the Pigeonhole server's test control (`/_test`), generated from `specs/test-control` by openapi-typescript.
 *
 * - `paths` and `operations` describe every request and response; the typed test-control client is built on them.
 * - Every schema of the spec is also exported under its own name: `Clock`, `Fault`, `CreateFaultRequest`,
 *   `WaitForMessageResponse`, `WebhookDelivery`, ...
 */
export type * from "./generated/schema.js";
