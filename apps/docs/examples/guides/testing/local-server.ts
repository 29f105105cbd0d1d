import { createInboxClient } from "@pigeonhole/inbox";
import { type ServerOptions, startServer } from "@pigeonhole/server";
import { createTestControl } from "@pigeonhole/test-control";
import { afterAll, beforeEach } from "vitest";

/**
 * Starts a server for the test file that calls it, and wipes it before
 * each of its tests: every test starts with no data, no faults, and
 * the clock on real time.
 */
export async function useLocalServer(options: ServerOptions = {}) {
  const server = await startServer({
    // Free ports and a fresh database: test files run in parallel.
    inboxPort: 0,
    forumPort: 0,
    database: ":memory:",
    logger: false,
    // The tests' webhook receivers listen on 127.0.0.1.
    allowPrivateWebhooks: true,
    ...options,
  });
  afterAll(() => server.close());
  // On by default, as on every server started with development keys.
  if (server.testControl === null) {
    throw new Error("test control is off");
  }

  const tc = createTestControl(server.testControl);
  const inbox = createInboxClient({
    baseUrl: server.inbox.url,
    apiKey: server.inbox.apiKey,
  });
  beforeEach(() => tc.reset());
  return { server, tc, inbox };
}
