import { createContext, type ReactNode, useCallback, useContext, useMemo, useRef, useState } from "react";

/**
 * When the page last moved on: a failed action keeps its error box only while nothing has succeeded since. Each
 * failure and each fresh start takes the next tick, so "failed after the last fresh start" is a comparison.
 */
export interface FailureClock {
  /** The tick of the latest fresh start: an action's success, or a change of API key. */
  freshSince: number;
  /** A new tick, for a failure that happens now. */
  tick: () => number;
  /** Marks a fresh start: every failure before now is history. */
  freshStart: () => void;
}

const FailureClockContext = createContext<FailureClock | undefined>(undefined);

export function FailureClockProvider({ children }: { children: ReactNode }) {
  const ticks = useRef(0);
  const [freshSince, setFreshSince] = useState(0);
  const tick = useCallback(() => {
    ticks.current += 1;
    return ticks.current;
  }, []);
  const freshStart = useCallback(() => setFreshSince(tick()), [tick]);
  const clock = useMemo(() => ({ freshSince, tick, freshStart }), [freshSince, tick, freshStart]);
  return <FailureClockContext value={clock}>{children}</FailureClockContext>;
}

export function useFailureClock(): FailureClock {
  const clock = useContext(FailureClockContext);
  if (clock === undefined) {
    throw new Error("useFailureClock is used outside a FailureClockProvider");
  }
  return clock;
}
