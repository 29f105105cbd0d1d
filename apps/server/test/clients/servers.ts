import { afterAll, beforeAll } from "vitest";
import { type Server, type ServerLimits, startServer } from "../../src/index.ts";
import { SkewedClock } from "./skewed-clock.ts";

/**
 * The servers of one test file, started before its tests and closed after them: `main`, with the default limits
 * and webhook delivery to 127.0.0.1, and `limited`, with `limits` and a clock the tests move near a window's end.
 */
export function serversForFile(limits: Partial<ServerLimits>) {
  const clock = new SkewedClock();
  let main: Server | undefined;
  let limited: Server | undefined;
  beforeAll(async () => {
    const shared = { database: ":memory:", inboxPort: 0, forumPort: 0, logger: false } as const;
    main = await startServer({ ...shared, allowPrivateWebhooks: true });
    limited = await startServer({ ...shared, limits, clock });
  });
  afterAll(async () => {
    await main?.close();
    await limited?.close();
  });
  const started = (server: Server | undefined): Server => {
    if (!server) {
      throw new Error("The servers start in beforeAll: use them inside tests.");
    }
    return server;
  };
  return {
    clock,
    get main(): Server {
      return started(main);
    },
    get limited(): Server {
      return started(limited);
    },
  };
}
