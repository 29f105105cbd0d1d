// Sends one generated tool's call as the API request its operation describes, through the project's own client.
import type { GeneratedTool } from "./tool-definition.js";

type Arguments = Readonly<Record<string, unknown>>;

/** The call style of the clients that resolves to the data or throws the API's error, with a path known at run time. */
export type LooseCall = (
  path: string,
  init: { params: { path: Record<string, unknown>; query: Record<string, unknown> }; body?: Record<string, unknown> },
) => Promise<unknown>;

/** A client, seen through the methods the tools use. */
export type LooseClient = Record<GeneratedTool["method"], LooseCall>;

/** The arguments named in `names`, leaving out those not given. */
const pick = (args: Arguments, names: readonly string[]) =>
  Object.fromEntries(names.filter((name) => args[name] !== undefined).map((name) => [name, args[name]]));

/** Calls the operation: path and query arguments become parameters, the rest the JSON body. */
export function callOperation(client: LooseClient, tool: GeneratedTool, args: Arguments): Promise<unknown> {
  const params = { path: pick(args, tool.pathParameters), query: pick(args, tool.queryParameters) };
  // An operation without a request body has no body properties; one whose properties are all optional sends `{}`.
  return client[tool.method](
    tool.path,
    tool.bodyProperties.length > 0 ? { params, body: pick(args, tool.bodyProperties) } : { params },
  );
}
