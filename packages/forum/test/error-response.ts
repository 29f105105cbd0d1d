/** The forum error envelope, as the service sends it. */
export function forumError(status: number, code: string, message: string, headers: Record<string, string> = {}) {
  return Response.json(
    { success: false, error: message, code, hint: "See the API reference." },
    { status, headers: { "x-request-id": `req_${status}`, "retry-after-ms": "0", ...headers } },
  );
}
