import type { Hono, MiddlewareHandler } from "hono";
import type { Clock } from "../clock.ts";
import type { ServiceEnv } from "../http/service-env.ts";
import type { DeliverAttempt } from "../inbox/webhooks/attempt-delivery.ts";
import type { ApiKeys } from "../keys/api-keys.ts";
import type { ServerLogger } from "../logger.ts";
import { OutcomeSimulator } from "../mail/outbound/outcome-simulator.ts";
import { magicAddressOutcome } from "../mail/outbound/simulated-outcome.ts";
import type { ServiceName } from "../service-name.ts";
import type { DeliveryOutbox } from "../storage/inbox/delivery-outbox.ts";
import type { Storage } from "../storage/open-storage.ts";
import { ControllableClock } from "./controllable-clock.ts";
import { createExtractHandlers } from "./extract/extract-handlers.ts";
import { FaultRegistry } from "./faults/fault-registry.ts";
import { applyRequestFaults } from "./faults/request-faults.ts";
import { deliverWithFaults } from "./faults/webhook-faults.ts";
import { createResetter } from "./resetter.ts";
import { servedWithTestControl } from "./served-with-test-control.ts";
import { createTestControlApp } from "./test-control-app.ts";
import { createControlHandlers } from "./test-control-handlers.ts";
import { notifyingOutbox } from "./wait/notifying-outbox.ts";
import { createWaitHandlers } from "./wait/wait-handlers.ts";
import { WaitWakeups } from "./wait/wait-wakeups.ts";

type FetchApp = Pick<Hono, "fetch">;

export interface TestControlSeamOptions {
  /** The test-control key. */
  key: string;
  /** Real time, where the controllable clock starts. */
  clock: Clock;
  logger: ServerLogger;
}

/** What `/_test` reaches of the server: its data (waits, extract, reset) and its keys (reset of one key's data). */
export interface TestControlDependencies {
  storage: Storage;
  apiKeys: ApiKeys;
}

/**
 * Test control as the server sees it: one object, made only when test control is on, that supplies each part the
 * server reads in its place or wraps. Without it, the server uses each part as it is.
 */
export interface TestControlSeam {
  /** The clock the whole server reads: tests set and advance it. */
  readonly clock: Clock;
  /** Outside recipients' outcomes, simulated instead of relayed: a mail fault first, then the magic addresses. */
  readonly mailOutcomes: OutcomeSimulator;
  /** Called after each commit, here or on another instance, that may have stored what a wait looks for. */
  readonly notifyWaits: () => void;
  /** The webhook outbox for the delivery worker: waits for a delivery look again once an attempt is recorded. */
  webhookOutbox(outbox: DeliveryOutbox): DeliveryOutbox;
  /** The delivery worker's `deliver` with webhook faults applied; `claimMs` is the longest one attempt holds its row. */
  webhookDeliver(deliver: DeliverAttempt, claimMs: number): DeliverAttempt;
  /** One service's request faults, applied before anything else handles its requests. */
  requestFaults(service: ServiceName): MiddlewareHandler<ServiceEnv<unknown>>;
  /** Calls `listener` after every move of the clock forward (set, advance, unfreeze, reset). */
  onClockForward(listener: () => void): void;
  /** Each service's app with `/_test` beside it: one test-control app answers on both ports. */
  servedBeside(
    apps: Record<ServiceName, FetchApp>,
    dependencies: TestControlDependencies,
  ): Record<ServiceName, FetchApp>;
}

/** Test control's parts, each made once: the controllable clock, the faults, the waits' wakeups and the simulator. */
export function createTestControlSeam(options: TestControlSeamOptions): TestControlSeam {
  const { key, logger } = options;
  const clock = new ControllableClock(options.clock);
  const faults = new FaultRegistry(clock, logger);
  const waits = new WaitWakeups();
  const testControlApp = ({ storage, apiKeys }: TestControlDependencies) =>
    createTestControlApp({
      key,
      handlers: {
        ...createControlHandlers({ clock, faults, reset: createResetter({ storage, apiKeys, clock, faults }) }),
        ...createWaitHandlers({ storage, wakeups: waits }),
        ...createExtractHandlers({ storage }),
      },
      logger,
    });
  return {
    clock,
    mailOutcomes: new OutcomeSimulator(
      (recipient) => faults.takeMailFault(recipient) ?? magicAddressOutcome(recipient),
    ),
    notifyWaits: () => waits.notify(),
    webhookOutbox: (outbox) => notifyingOutbox(outbox, () => waits.notify()),
    // A held delivery goes within a quarter of that, well before its claim stops being renewed for another to take.
    webhookDeliver: (deliver, claimMs) => deliverWithFaults(faults, { deliver, holdLimitMs: Math.floor(claimMs / 4) }),
    requestFaults: (service) => applyRequestFaults(faults, service),
    onClockForward(listener) {
      clock.onForward(listener);
    },
    servedBeside(apps, dependencies) {
      const app = testControlApp(dependencies);
      return { inbox: servedWithTestControl(apps.inbox, app), forum: servedWithTestControl(apps.forum, app) };
    },
  };
}
