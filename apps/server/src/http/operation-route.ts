import type { Context, Handler, MiddlewareHandler } from "hono";
import type { SpecOperation } from "../spec/request-validator.ts";
import type { ValidationIssue } from "../spec/validation-issue.ts";
import { answer, answerJson } from "./answer.ts";
import { ApiProblem } from "./api-problem.ts";
import { readJsonBody } from "./json-body.ts";
import type { RequestContext } from "./operation-types.ts";
import type { ServiceEnv } from "./service-env.ts";

/** What a handler answers: a status and a JSON body (none for 204), or bytes with their content type. */
export type HandlerReply =
  | { status: number; body: unknown; contentType?: undefined }
  | { status: number; body: Uint8Array; contentType: string; headers?: Record<string, string> };

/**
 * A handler as the app holds it. Its input is the request its operation's validator accepted, which has the type
 * the handler declares for it: both come from the same spec. `never` lets a handler of any operation's input stand
 * here, and the route below is the one place that hands it that input.
 */
export type OperationHandler<Caller> = (input: never, context: RequestContext<Caller>) => Promise<HandlerReply>;

/** Handlers by operation id, as `createInboxHandlers`/`createForumHandlers` make them. */
export type OperationHandlerMap<Caller> = Readonly<Record<string, OperationHandler<Caller>>>;

/** Refines the code of a validation issue (the inbox names too many recipients specially). */
export type IssueCoder<Code extends string> = (issue: ValidationIssue) => Code;

/** How one operation is served. */
export interface OperationRoute<Caller, HandlerCaller, Code extends string> {
  operation: SpecOperation;
  handler: OperationHandler<HandlerCaller>;
  issueCode?: IssueCoder<Code>;
  callerOf: (c: Context<ServiceEnv<Caller>>) => HandlerCaller;
  /** The limit its body is read under (see body-limit.ts); none for a method without a body. */
  bodyLimit: MiddlewareHandler | null;
}

/**
 * Serves one operation: reads the JSON body within its limit, validates the request against the spec, calls its
 * handler and sends the reply. One handler for all of it rather than a middleware for each: every layer of Hono
 * middleware costs a few promise round trips on every request.
 */
export function operationRoute<Caller, HandlerCaller extends Caller | null, Code extends string>(
  route: OperationRoute<Caller, HandlerCaller, Code>,
): Handler<ServiceEnv<Caller>> {
  const { operation, handler, issueCode, callerOf, bodyLimit } = route;
  return async (c) => {
    const result = operation.validate({
      path: c.req.param() as Record<string, string>,
      query: singleValues(c.req.queries()),
      header: (name) => c.req.header(name),
      body: bodyLimit ? await readBodyWithin(c, bodyLimit) : undefined,
    });
    if (!result.ok) {
      throw ApiProblem.fromIssue(result.issue, issueCode?.(result.issue));
    }
    // The validator has checked the request against the schemas the handler's input type is generated from.
    const context = new HandlerContext(
      callerOf(c),
      c.get("requestId"),
      c.get("clientAddress"),
      c.req.raw,
      c.get("forwardedOrigin"),
    );
    const reply = await handler(result.request as never, context);
    if (reply.contentType !== undefined) {
      return bytesReply(c, reply);
    }
    return reply.status === 204 ? answer(c, 204, null) : answerJson(c, reply.status, reply.body);
  };
}

/** The request's JSON body, read under `bodyLimit` (Hono's body limit), which refuses it 413 past the limit. */
async function readBodyWithin(c: Context, bodyLimit: MiddlewareHandler): Promise<unknown> {
  let body: unknown;
  await bodyLimit(c, async () => {
    body = await readJsonBody(c);
  });
  return body;
}

/** What the handler knows of the request; the abort signal is made only for a handler that asks for it. */
class HandlerContext<Caller> implements RequestContext<Caller> {
  readonly caller: Caller;
  readonly requestId: string;
  readonly clientAddress: string;
  readonly #request: Request;
  /** Set from a trusted proxy's headers (see forwarded-origin.ts). */
  readonly #forwardedOrigin: string | undefined;

  constructor(
    caller: Caller,
    requestId: string,
    clientAddress: string,
    request: Request,
    forwardedOrigin: string | undefined,
  ) {
    this.caller = caller;
    this.requestId = requestId;
    this.clientAddress = clientAddress;
    this.#request = request;
    this.#forwardedOrigin = forwardedOrigin;
  }

  get signal(): AbortSignal {
    return this.#request.signal;
  }

  header(name: string): string | undefined {
    return this.#request.headers.get(name) ?? undefined;
  }

  get url(): string {
    return this.#request.url;
  }

  get origin(): string {
    return this.#forwardedOrigin ?? new URL(this.#request.url).origin;
  }
}

/** A download, through Hono's own answer: its headers are validated there, like any other Hono answer's. */
function bytesReply(c: Context, reply: Extract<HandlerReply, { contentType: string }>): Response {
  const { buffer, byteOffset, byteLength } = reply.body;
  // A view of the same memory; a copy only for bytes in shared memory, which a response cannot carry.
  const bytes =
    buffer instanceof ArrayBuffer ? new Uint8Array(buffer, byteOffset, byteLength) : new Uint8Array(reply.body);
  return c.body(bytes, reply.status as 200, {
    ...reply.headers,
    "Content-Type": reply.contentType,
    "Content-Length": String(bytes.byteLength),
  });
}

/** A repeated query parameter stays a list (and fails a scalar schema); a single one becomes its value. */
const singleValues = (queries: Record<string, string[]>): Record<string, string | string[]> =>
  Object.fromEntries(
    Object.entries(queries).map(([name, values]) => [name, values.length === 1 ? (values[0] ?? "") : values]),
  );
