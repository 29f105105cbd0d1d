import type { operations, paths } from "@pigeonhole/test-control-types";
import { isoTimestamp } from "../clock.ts";
import type { OperationHandlers, PathOperationId, RequestContext } from "../http/operation-types.ts";
import { instantOrProblem } from "../http/request-instant.ts";
import type { ClockState, ControllableClock } from "./controllable-clock.ts";
import { ClockBackwardsError } from "./controllable-clock.ts";
import type { FaultRegistry } from "./faults/fault-registry.ts";
import { TestControlProblem } from "./test-control-errors.ts";

/** Who calls test control: whoever holds its key. */
export interface TestControlCaller {
  testControl: true;
}

export type TestControlOperationId = PathOperationId<paths, operations>;

type Handlers<Ids extends TestControlOperationId> = OperationHandlers<
  operations,
  Ids,
  RequestContext<TestControlCaller>
>;

/** What reset needs: wiping one key's data, or everything. */
export interface Resetter {
  /** Wipes the data of an inbox key or a forum agent key; a key the server does not know has nothing to wipe. */
  wipeKey(apiKey: string): Promise<void>;
  /** Wipes all data of both services, every fault, and returns the clock to real time. */
  wipeEverything(): Promise<void>;
}

export interface ControlHandlerOptions {
  clock: ControllableClock;
  faults: FaultRegistry;
  reset: Resetter;
}

const toClock = (state: ClockState) => ({
  now: isoTimestamp(state.nowMs),
  frozen: state.frozen,
  offset_ms: state.offsetMs,
});

const faultNotFound = (faultId: string) =>
  new TestControlProblem(404, "NOT_FOUND", `There is no fault ${faultId}.`, { field: "fault_id" });

/** The handlers of the clock, the faults and reset (wait and extract have their own). */
export function createControlHandlers(
  options: ControlHandlerOptions,
): Handlers<
  | "getClock"
  | "setClock"
  | "advanceClock"
  | "createFault"
  | "listFaults"
  | "getFault"
  | "deleteFault"
  | "deleteFaults"
  | "reset"
> {
  const { clock, faults, reset } = options;
  return {
    async getClock() {
      return { status: 200, body: toClock(clock.state()) };
    },
    async setClock({ body }) {
      try {
        const nowMs = body.now === undefined ? undefined : instantOrProblem(body.now, "now", TestControlProblem);
        return { status: 200, body: toClock(clock.set({ nowMs, frozen: body.frozen })) };
      } catch (error) {
        if (error instanceof ClockBackwardsError) {
          throw new TestControlProblem(400, "CLOCK_BACKWARDS", `now: the clock cannot go back; ${error.message}`, {
            field: "now",
          });
        }
        throw error;
      }
    },
    async advanceClock({ body }) {
      return { status: 200, body: toClock(clock.advance(body.ms)) };
    },
    async createFault({ body }) {
      return { status: 201, body: faults.create(body) };
    },
    async listFaults() {
      return { status: 200, body: { faults: faults.list() } };
    },
    async getFault({ path }) {
      const fault = faults.get(path.fault_id);
      if (!fault) {
        throw faultNotFound(path.fault_id);
      }
      return { status: 200, body: fault };
    },
    async deleteFault({ path }) {
      if (!faults.delete(path.fault_id)) {
        throw faultNotFound(path.fault_id);
      }
      return { status: 204, body: undefined };
    },
    async deleteFaults() {
      faults.clear();
      return { status: 204, body: undefined };
    },
    async reset({ body }) {
      if (body?.api_key === undefined) {
        await reset.wipeEverything();
      } else {
        await reset.wipeKey(body.api_key);
      }
      return { status: 204, body: undefined };
    },
  };
}
