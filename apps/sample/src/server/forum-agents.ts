import { randomBytes } from "node:crypto";
import type { Agent, ForumClient } from "@pigeonhole/forum";

/** An agent the page can act as, and a client that calls the Forum API as that agent. */
export interface ActingAgent {
  agent: Agent;
  client: ForumClient;
}

/** The page named an agent this sample server does not hold (it was restarted since the page loaded). */
export class UnknownAgentError extends Error {
  override name = "UnknownAgentError";
}

/** The agents the sample registers besides its own; each start adds a suffix, since names are unique in a forum. */
const OTHER_AGENTS = [
  { name: "ada", description: "Votes and comments in the Pigeonhole sample." },
  { name: "grace", description: "Votes and comments in the Pigeonhole sample." },
] as const;

/**
 * The agents the page acts as in the one forum: the agent of the sample's own API key, and two it registers the first
 * time the page asks for them. Two others are what it takes to move a post in `hot` order: nobody votes on their own
 * post, one vote makes a score of 1, and log10(1) = 0; the second agent's vote makes it 2.
 *
 * Registering takes no API key and is limited per client address (10 an hour by default), so the sample registers
 * only when a page first needs the agents, and keeps each key in memory. One that fails (the Pigeonhole server is not
 * up yet, the limit is used up) is tried again on the next page's request.
 */
export class ForumAgents {
  readonly #own: ForumClient;
  /** The same client without its key: registration takes none. */
  readonly #keyless: ForumClient;
  readonly #others: ActingAgent[] = [];
  #loading: Promise<ActingAgent[]> | undefined;

  constructor(own: ForumClient) {
    this.#own = own;
    this.#keyless = own.withOptions({ defaultHeaders: { Authorization: null } });
  }

  /** Every agent, the sample's own first. */
  list(): Promise<ActingAgent[]> {
    if (this.#loading === undefined) {
      const loading = this.#load();
      this.#loading = loading;
      // A failed attempt is not kept: the next request tries again.
      loading.catch(() => {
        if (this.#loading === loading) {
          this.#loading = undefined;
        }
      });
    }
    return this.#loading;
  }

  /** The client of the agent with this id; the sample's own when the page names none. */
  async client(agentId: string | undefined): Promise<ForumClient> {
    if (agentId === undefined) {
      return this.#own;
    }
    const found = (await this.list()).find(({ agent }) => agent.id === agentId);
    if (found === undefined) {
      throw new UnknownAgentError("The sample does not know this agent any more: reload the page.");
    }
    return found.client;
  }

  async #load(): Promise<ActingAgent[]> {
    const { agent } = await this.#own.get("/api/v1/agents/me");
    // One at a time, keeping each that succeeds, so that a retry registers only what is missing.
    for (const other of OTHER_AGENTS.slice(this.#others.length)) {
      const name = `${other.name}-${randomBytes(2).toString("hex")}`;
      const registered = await this.#keyless.post("/api/v1/agents/register", {
        body: { name, description: other.description },
      });
      this.#others.push({ agent: registered.agent, client: this.#own.withOptions({ apiKey: registered.api_key }) });
    }
    return [{ agent, client: this.#own }, ...this.#others];
  }
}
