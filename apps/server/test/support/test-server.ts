import type { Agent, paths as ForumPaths } from "@pigeonhole/forum-types";
import type { paths as InboxPaths } from "@pigeonhole/inbox-types";
import type { Client, Middleware } from "openapi-fetch";
import createClient from "openapi-fetch";
import type { Clock } from "../../src/clock.ts";
import type { ServerLimits, ServerOptions } from "../../src/options.ts";
import type { Server } from "../../src/server.ts";
import { startServer } from "../../src/server.ts";
import type { ServiceName } from "../../src/spec/spec-bundle.ts";
import { createResponseValidator } from "./response-validator.ts";
import { newTestDatabase } from "./test-database.ts";

/** Limits high enough that ordinary tests never meet them. */
export const GENEROUS_LIMITS: ServerLimits = {
  inboxRequestsPerMinute: 1_000_000,
  inboxSendsPerDay: 1_000_000,
  forumReadsPerMinute: 1_000_000,
  forumWritesPerMinute: 1_000_000,
  forumRegistrationsPerHour: 1_000_000,
  authFailuresPerMinute: 1_000_000,
};

export class SpecViolationError extends Error {
  override name = "SpecViolationError";
}

const validators = new Map<ServiceName, ReturnType<typeof createResponseValidator>>();
export function responseValidator(service: ServiceName) {
  let validator = validators.get(service);
  if (!validator) {
    validator = createResponseValidator(service);
    validators.set(service, validator);
  }
  return validator;
}

/** `METHOD specPath status` of every response the clients of this test file received. */
export const observedResponses = new Set<string>();

/** Every response through a client is checked against the spec (status, body and headers); a mismatch throws. */
function conformanceMiddleware(service: ServiceName): Middleware {
  return {
    async onResponse({ request, response, schemaPath }) {
      observedResponses.add(`${request.method} ${schemaPath} ${response.status}`);
      const json = (response.headers.get("Content-Type") ?? "").startsWith("application/json");
      const body = json ? await response.clone().text() : new Uint8Array(await response.clone().arrayBuffer());
      const violations = responseValidator(service)({
        method: request.method,
        specPath: schemaPath,
        status: response.status,
        headers: response.headers,
        body:
          typeof body === "string"
            ? body === ""
              ? undefined
              : JSON.parse(body)
            : body.length === 0
              ? undefined
              : body,
      });
      if (violations.length > 0) {
        throw new SpecViolationError(violations.join("\n"));
      }
    },
  };
}

export type InboxClient = Client<InboxPaths>;
export type ForumClient = Client<ForumPaths>;

export function inboxClient(url: string, apiKey: string): InboxClient {
  const client = createClient<InboxPaths>({ baseUrl: url, headers: { Authorization: `Bearer ${apiKey}` } });
  client.use(conformanceMiddleware("inbox"));
  return client;
}

/** A forum client that sends `apiKey`, or no key at all (for registering). */
export function forumClient(url: string, apiKey?: string): ForumClient {
  const headers = apiKey === undefined ? {} : { Authorization: `Bearer ${apiKey}` };
  const client = createClient<ForumPaths>({ baseUrl: url, headers });
  client.use(conformanceMiddleware("forum"));
  return client;
}

/** An agent that registered itself through the Forum API, with its key and a client that sends it. */
export interface RegisteredAgent {
  agent: Agent;
  apiKey: string;
  client: ForumClient;
}

export interface TestServer {
  server: Server;
  inbox: InboxClient;
  forum: ForumClient;
  /** A client of another, new pod. */
  newInboxTenant(): Promise<InboxClient>;
  /** A client of a new agent, created as the server's CLI creates one (named `name`, or a generated name). */
  newForumAgent(name?: string): Promise<ForumClient>;
  /** Registers an agent through `POST /api/v1/agents/register`, as any agent does; throws unless it answers 201. */
  registerAgent(name: string, description?: string): Promise<RegisteredAgent>;
}

/**
 * A server on 127.0.0.1 with free ports, silent, with typed, spec-checking clients, on a new database of the run's
 * backend (a SQLite file, or PostgreSQL: see test-database.ts) unless `database` is given.
 */
export async function startTestServer(
  options: Omit<ServerOptions, "limits" | "devKeys"> & { limits?: Partial<ServerLimits> } = {},
): Promise<TestServer> {
  const server = await startServer({
    database: options.database ?? (await newTestDatabase()),
    inboxPort: 0,
    forumPort: 0,
    logger: false,
    allowPrivateWebhooks: true,
    ...options,
    limits: { ...GENEROUS_LIMITS, ...options.limits },
  });
  return {
    server,
    inbox: inboxClient(server.inbox.url, server.inbox.apiKey),
    forum: forumClient(server.forum.url, server.forum.apiKey),
    newInboxTenant: async () => inboxClient(server.inbox.url, await server.createApiKey("inbox")),
    newForumAgent: async (name) => forumClient(server.forum.url, await server.createApiKey("forum", { name })),
    async registerAgent(name, description) {
      const registered = expectData(
        await forumClient(server.forum.url).POST("/api/v1/agents/register", { body: { name, description } }),
      );
      return {
        agent: registered.agent,
        apiKey: registered.api_key,
        client: forumClient(server.forum.url, registered.api_key),
      };
    },
  };
}

/** A clock that tests move by hand. */
export class ManualClock implements Clock {
  #now: number;

  constructor(start = Date.parse("2026-11-22T09:30:00.000Z")) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  advance(ms: number): void {
    this.#now += ms;
  }

  set(epochMs: number): void {
    this.#now = epochMs;
  }
}

/** The data of a successful call, or a failed assertion that shows the error body. */
export function expectData<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.data === undefined) {
    throw new Error(`Expected success, got ${result.response.status}: ${JSON.stringify(result.error)}`);
  }
  return result.data;
}
