// The real server for one test file, driven by the official `agentmail` SDK as an AgentMail user drives it: the
// SDK's own client with only its addresses pointed at our server.
import { AgentMailClient } from "agentmail";
import { afterAll, beforeAll } from "vitest";
import type { Server } from "../../../src/index.ts";
import { startTestServer, type TestServer } from "../../support/test-server.ts";

/** The SDK's client for `apiKey` on `server`: HTTP at the inbox service, WebSockets at its `ws:` twin. */
export function agentMailClient(server: Server, apiKey: string): AgentMailClient {
  const http = server.inbox.url;
  return new AgentMailClient({
    apiKey,
    environment: { http, websockets: http.replace(/^http/, "ws") },
    // A failure is the answer under test, not something to try again.
    maxRetries: 0,
    timeoutInSeconds: 10,
  });
}

export interface AgentMailServer {
  server: Server;
  /** The server's typed clients and helpers (see test-server.ts). */
  testServer: TestServer;
  /** The SDK's client for the development pod. */
  sdk: AgentMailClient;
  /** The SDK's client for a new pod, with its key. */
  newPod(): Promise<{ sdk: AgentMailClient; apiKey: string }>;
}

/** Starts the server before the file's tests (on the run's database) and closes it after them. */
export function agentMailServerForFile(options: Parameters<typeof startTestServer>[0] = {}): AgentMailServer {
  let started: TestServer | undefined;
  beforeAll(async () => {
    started = await startTestServer(options);
  });
  afterAll(async () => {
    await started?.server.close();
  });
  const current = (): TestServer => {
    if (!started) {
      throw new Error("The server starts in beforeAll: use it inside tests.");
    }
    return started;
  };
  return {
    get server() {
      return current().server;
    },
    get testServer() {
      return current();
    },
    get sdk() {
      const { server } = current();
      return agentMailClient(server, server.inbox.apiKey ?? "");
    },
    async newPod() {
      const { server } = current();
      const apiKey = await server.createApiKey("inbox");
      return { sdk: agentMailClient(server, apiKey), apiKey };
    },
  };
}
