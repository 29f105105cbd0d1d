import { randomLowerAlphanumeric } from "../ids.ts";
import type { ApiKeys, ServiceName } from "./api-keys.ts";

/** The name of the agent of the development forum key. */
export const DEV_AGENT_NAME = "pigeonhole-dev";

/** Agent names as the Forum API takes them: 3 to 32 of a-z, 0-9, `_` and `-`. */
const AGENT_NAME = /^[a-z0-9_-]{3,32}$/;

export class AgentNameTakenError extends Error {
  override name = "AgentNameTakenError";
}

export class InvalidAgentNameError extends Error {
  override name = "InvalidAgentNameError";
}

/** What `registerKey` registers: the key (else a new random one), the agent's name, the pod, development or not. */
export interface KeyToRegister {
  key?: string;
  /** The forum agent's name; a generated one when absent. */
  name?: string;
  /** An existing pod the inbox key opens (a second key, for rotation); a new pod when absent. */
  podId?: string;
  /** A development key, which a server started without development keys removes. */
  dev?: boolean;
}

/**
 * Registers an API key of either service (for the CLI and the development keys) and answers it. A forum key is a new
 * agent: named `name`, or a generated name when none is given.
 */
export async function registerKey(
  apiKeys: ApiKeys,
  service: ServiceName,
  options: KeyToRegister = {},
): Promise<string> {
  if (service === "inbox") {
    return (await apiKeys.registerInboxKey(options.key, { podId: options.podId, dev: options.dev })).key;
  }
  const name = options.name ?? `agent-${randomLowerAlphanumeric(8)}`;
  if (!AGENT_NAME.test(name)) {
    throw new InvalidAgentNameError(`The agent name '${name}' must be 3 to 32 of a-z, 0-9, _ and -.`);
  }
  const registered = await apiKeys.registerAgent({ key: options.key, name }, { dev: options.dev });
  if ("nameTaken" in registered) {
    throw new AgentNameTakenError(`The agent name '${name}' is taken; choose another with --name.`);
  }
  return registered.key;
}
