/** The inbox error envelope with the status's type, as the service sends it. */
export function inboxError(status: number, code: string, message: string, headers: Record<string, string> = {}) {
  const type: Record<number, string> = {
    400: "validation_error",
    401: "authentication_error",
    404: "not_found_error",
    409: "conflict_error",
    413: "payload_too_large_error",
    429: "rate_limit_error",
    500: "internal_error",
  };
  return Response.json(
    { error: { type: type[status] ?? "internal_error", message, details: { field: null, code } } },
    { status, headers: { "x-request-id": `req_${status}`, "retry-after-ms": "0", ...headers } },
  );
}
