import type { Context, Handler } from "hono";
import type { SpecOperation } from "../spec/request-validator.ts";
import type { ValidationIssue } from "../spec/validation-issue.ts";
import { ApiProblem } from "./api-problem.ts";
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

/** Serves one operation: validates the request against the spec, calls its handler and sends the reply. */
export function operationRoute<Caller, HandlerCaller extends Caller | null, Code extends string>(
  operation: SpecOperation,
  handler: OperationHandler<HandlerCaller>,
  issueCode: IssueCoder<Code> | undefined,
  callerOf: (c: Context<ServiceEnv<Caller>>) => HandlerCaller,
): Handler<ServiceEnv<Caller>> {
  return async (c) => {
    const result = operation.validate({
      path: c.req.param() as Record<string, string>,
      query: singleValues(c.req.queries()),
      header: (name) => c.req.header(name),
      body: c.get("body"),
    });
    if (!result.ok) {
      throw ApiProblem.fromIssue(result.issue, issueCode?.(result.issue));
    }
    // The validator has checked the request against the schemas the handler's input type is generated from.
    const context = {
      caller: callerOf(c),
      requestId: c.get("requestId"),
      clientAddress: c.get("clientAddress"),
      signal: c.req.raw.signal,
    };
    const reply = await handler(result.request as never, context);
    if (reply.contentType !== undefined) {
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
    return reply.status === 204 ? c.body(null, 204) : c.json(reply.body as object, reply.status as 200);
  };
}

/** A repeated query parameter stays a list (and fails a scalar schema); a single one becomes its value. */
const singleValues = (queries: Record<string, string[]>): Record<string, string | string[]> =>
  Object.fromEntries(
    Object.entries(queries).map(([name, values]) => [name, values.length === 1 ? (values[0] ?? "") : values]),
  );
