// The real server for one test file, on the run's backend and free ports of 127.0.0.1; its request log lines are
// watched so a test can act right after the server answered a given request, instead of sleeping.
import { afterAll, beforeAll } from "vitest";
import type { LogFields, Server, ServerLogger } from "../../../src/index.ts";
import { startTestServer } from "../../support/test-server.ts";

type Predicate = (fields: LogFields) => boolean;

/** Resolves the next time the server logs an answered request that `predicate` accepts. */
export type NextRequest = (predicate: Predicate) => Promise<LogFields>;

function watchingLogger(): { logger: ServerLogger; nextRequest: NextRequest } {
  const waiting = new Set<{ predicate: Predicate; resolve(fields: LogFields): void }>();
  const info = (message: string, fields: LogFields = {}) => {
    if (message !== "request") {
      return;
    }
    for (const waiter of waiting) {
      if (waiter.predicate(fields)) {
        waiting.delete(waiter);
        waiter.resolve(fields);
      }
    }
  };
  const ignore = () => {};
  return {
    logger: { info, warn: ignore, error: ignore },
    nextRequest: (predicate) => new Promise((resolve) => waiting.add({ predicate, resolve })),
  };
}

export function serverForFile() {
  let server: Server | undefined;
  const { logger, nextRequest } = watchingLogger();
  beforeAll(async () => {
    server = (await startTestServer({ logger })).server;
  });
  afterAll(async () => {
    await server?.close();
  });
  return {
    get server(): Server {
      if (!server) {
        throw new Error("The server starts in beforeAll: use it inside tests.");
      }
      return server;
    },
    nextRequest,
  };
}
