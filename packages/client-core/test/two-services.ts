import {
  defineServiceErrors,
  type EnvelopeAPIError,
  type ErrorClass,
  type ServiceAPIError,
  type ServiceErrors,
} from "../src/index.js";

// Two services with envelopes of different shapes, defined as two clients built on the core define theirs.

/** A nested envelope: `{error: {message, details: {code, field}}}`. */
export interface MailErrorResponse {
  error: { message: string; details: { code: string; field: string | null } };
}

/** A flat envelope: `{success: false, error, code, hint}`. */
export interface BoardErrorResponse {
  success: false;
  error: string;
  code: string;
  hint: string;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const mail = defineServiceErrors({
  service: "mail",
  isEnvelope: (body): body is MailErrorResponse =>
    isRecord(body) &&
    isRecord(body.error) &&
    typeof body.error.message === "string" &&
    isRecord(body.error.details) &&
    typeof body.error.details.code === "string" &&
    (body.error.details.field === null || typeof body.error.details.field === "string"),
  summarize: ({ error }) => ({ code: error.details.code, message: error.message, field: error.details.field }),
});

const board = defineServiceErrors({
  service: "board",
  isEnvelope: (body): body is BoardErrorResponse =>
    isRecord(body) &&
    body.success === false &&
    typeof body.error === "string" &&
    typeof body.code === "string" &&
    typeof body.hint === "string",
  summarize: ({ error, code, hint }) => ({ code, message: error, hint }),
});

export const mailError = (code: string, message: string, field: string | null = null): MailErrorResponse => ({
  error: { message, details: { code, field } },
});

export const boardError = (code: string, message: string, hint = "See the reference."): BoardErrorResponse => ({
  success: false,
  error: message,
  code,
  hint,
});

// Each instance type gets an interface of its own, as in the clients: `instanceof` narrowing compares declarations,
// and two instantiations of one generic interface would count as the same class.
export interface MailAPIError extends ServiceAPIError<"mail", MailErrorResponse> {}
export interface MailNotFoundError extends EnvelopeAPIError<"mail", MailErrorResponse, "NotFoundError"> {}
export interface BoardAPIError extends ServiceAPIError<"board", BoardErrorResponse> {}
export interface BoardNotFoundError extends EnvelopeAPIError<"board", BoardErrorResponse, "NotFoundError"> {}

export const mailErrors: Omit<ServiceErrors<"mail", MailErrorResponse>, "APIError" | "NotFoundError"> & {
  APIError: ErrorClass<MailAPIError>;
  NotFoundError: ErrorClass<MailNotFoundError, MailErrorResponse>;
} = mail;

export const boardErrors: Omit<ServiceErrors<"board", BoardErrorResponse>, "APIError" | "NotFoundError"> & {
  APIError: ErrorClass<BoardAPIError>;
  NotFoundError: ErrorClass<BoardNotFoundError, BoardErrorResponse>;
} = board;
