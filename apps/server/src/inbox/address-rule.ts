import { createSpecAjv } from "../spec/ajv.ts";
import type { OpenApiDocument } from "../spec/spec-bundle.ts";

const DOCUMENT_ID = "inbox-address-rule";

/**
 * The inbox spec's one rule for an e-mail address (`components/schemas/EmailAddress`), the rule request validation
 * applies to every address a request carries, as a predicate for addresses the service assembles itself.
 */
export function compileAddressRule(document: OpenApiDocument): (address: string) => boolean {
  const validate = createSpecAjv(document, DOCUMENT_ID).compile({
    $ref: `${DOCUMENT_ID}#/components/schemas/EmailAddress`,
  });
  return (address) => validate(address);
}
