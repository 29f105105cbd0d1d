import { createResponseValidator } from "../support/response-validator.ts";

type Service = "inbox" | "forum";

const validators = { inbox: createResponseValidator("inbox"), forum: createResponseValidator("forum") };

/**
 * Throws unless a result-style answer matches the spec: its status is documented for the operation, its body
 * matches that status's schema and its required headers are present and valid.
 */
export function expectConforms(
  service: Service,
  method: string,
  specPath: string,
  result: { data?: unknown; error?: unknown; response: Response },
): void {
  const violations = validators[service]({
    method,
    specPath,
    status: result.response.status,
    headers: result.response.headers,
    body: result.data ?? result.error,
  });
  if (violations.length > 0) {
    throw new Error(`The answer does not match the ${service} spec:\n${violations.join("\n")}`);
  }
}
