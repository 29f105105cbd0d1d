import { afterAll, beforeAll } from "vitest";
import { type Sandbox, type SandboxLimits, startSandbox } from "../../src/index.ts";
import { SkewedClock } from "./skewed-clock.ts";

/**
 * The sandboxes of one test file, started before its tests and closed after them: `main`, with the default limits
 * and webhook delivery to 127.0.0.1, and `limited`, with `limits` and a clock the tests move near a window's end.
 */
export function sandboxesForFile(limits: Partial<SandboxLimits>) {
  const clock = new SkewedClock();
  let main: Sandbox | undefined;
  let limited: Sandbox | undefined;
  beforeAll(async () => {
    const shared = { database: ":memory:", inboxPort: 0, forumPort: 0, logger: false } as const;
    main = await startSandbox({ ...shared, allowPrivateWebhooks: true });
    limited = await startSandbox({ ...shared, limits, clock });
  });
  afterAll(async () => {
    await main?.close();
    await limited?.close();
  });
  const started = (sandbox: Sandbox | undefined): Sandbox => {
    if (!sandbox) {
      throw new Error("The sandboxes start in beforeAll: use them inside tests.");
    }
    return sandbox;
  };
  return {
    clock,
    get main(): Sandbox {
      return started(main);
    },
    get limited(): Sandbox {
      return started(limited);
    },
  };
}
