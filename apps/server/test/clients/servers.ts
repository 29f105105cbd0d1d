import { createTestControl, type TestControl } from "@pigeonhole/test-control";
import { afterAll, afterEach, beforeAll } from "vitest";
import { type Server, type ServerLimits, startServer } from "../../src/index.ts";

/** A started server with the typed client of its test control. */
export interface ControlledServer {
  server: Server;
  control: TestControl;
}

/**
 * The servers of one test file, started before its tests and closed after them: `main`, with the default limits
 * and webhook delivery to 127.0.0.1, and `limited`, with `limits`. Both run locally, so test control is on: tests
 * make either misbehave with its faults and move its clock past a limit window instead of waiting for it.
 */
export function serversForFile(limits: Partial<ServerLimits>) {
  let main: ControlledServer | undefined;
  let limited: ControlledServer | undefined;
  beforeAll(async () => {
    const shared = { database: ":memory:", inboxPort: 0, forumPort: 0, logger: false } as const;
    main = controlled(await startServer({ ...shared, allowPrivateWebhooks: true }));
    limited = controlled(await startServer({ ...shared, limits }));
  });
  // Each test leaves no fault armed and the clock running, wherever it moved it.
  afterEach(async () => {
    await main?.control.faults.clear();
    await limited?.control.faults.clear();
    await limited?.control.clock.set({ frozen: false });
  });
  afterAll(async () => {
    await main?.server.close();
    await limited?.server.close();
  });
  const started = (server: ControlledServer | undefined): ControlledServer => {
    if (!server) {
      throw new Error("The servers start in beforeAll: use them inside tests.");
    }
    return server;
  };
  return {
    get main(): Server {
      return started(main).server;
    },
    /** Test control of `main`. */
    get control(): TestControl {
      return started(main).control;
    },
    get limited(): Server {
      return started(limited).server;
    },
    /** Test control of `limited`. */
    get limitedControl(): TestControl {
      return started(limited).control;
    },
  };
}

function controlled(server: Server): ControlledServer {
  if (!server.testControl) {
    throw new Error("Test control is off: the client tests need a server started locally.");
  }
  return { server, control: createTestControl({ baseUrl: server.inbox.url, key: server.testControl.key }) };
}
