// Turns what a client threw into the tool error a model reads: the API's envelope, unwrapped.
import { APIConnectionError, APIError, PigeonholeError } from "@pigeonhole/client-core";
import { EventStreamError } from "@pigeonhole/inbox";
import type { ServiceName } from "./tool-definition.js";
import type { ToolErrorBody } from "./tool-results.js";

type Envelope = Record<string, unknown>;

const text = (value: unknown): string | undefined => (typeof value === "string" && value !== "" ? value : undefined);

/** The inbox envelope is `{error: {type, message, details: {field, code}}}`. */
function inboxReason(body: Envelope): Pick<ToolErrorBody, "message" | "field"> | undefined {
  const error = body.error as Envelope | undefined;
  const details = error?.details as Envelope | undefined;
  const message = text(error?.message);
  return message === undefined ? undefined : { message, field: text(details?.field) ?? null };
}

/** The forum envelope is `{success: false, error, code, hint}`: it names no field apart from its message. */
function forumReason(body: Envelope): Pick<ToolErrorBody, "message" | "field" | "hint"> | undefined {
  const message = text(body.error);
  if (message === undefined) {
    return undefined;
  }
  const hint = text(body.hint);
  return { message, field: null, ...(hint === undefined ? {} : { hint }) };
}

/** The tool error for anything a call threw; an error no client throws is a bug, and is thrown on. */
export function toolErrorOf(service: ServiceName, baseUrl: string, error: unknown): ToolErrorBody {
  if (error instanceof APIError) {
    const body = (error.body ?? undefined) as Envelope | undefined;
    const reason = body === undefined ? undefined : service === "inbox" ? inboxReason(body) : forumReason(body);
    return {
      status: error.status,
      code: error.code ?? `HTTP_${error.status}`,
      ...(reason ?? { message: error.message, field: null }),
    };
  }
  if (error instanceof APIConnectionError) {
    return {
      code: "CONNECTION_ERROR",
      message: `The ${service} service at ${baseUrl} did not answer: ${error.message}`,
      field: null,
      hint: `Start the server (npx @pigeonhole/server) or set PIGEONHOLE_${service.toUpperCase()}_URL.`,
    };
  }
  if (error instanceof EventStreamError) {
    // The live event stream refused the subscription, with the inbox envelope's reason.
    return { code: error.code, message: error.message, field: error.field };
  }
  if (error instanceof PigeonholeError) {
    return { code: "CLIENT_ERROR", message: error.message, field: null };
  }
  throw error;
}
