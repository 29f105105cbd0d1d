import { type DependencyList, useCallback, useEffect, useState } from "react";
import type { ServerEvent } from "../shared/wire.ts";
import { type ProblemError, toProblemError } from "./api.ts";
import { useFailureClock } from "./failures.tsx";

export interface Loaded<T> {
  data: T | undefined;
  problem: ProblemError | undefined;
  reload: () => void;
}

/**
 * Calls `load` now and whenever one of `deps` changes or `reload()` is called; an older answer never wins. A failure
 * drops the data of the last success: shown under the error, it would pass for what the API says now.
 */
export function useLoader<T>(load: () => Promise<T>, deps: DependencyList): Loaded<T> {
  const [state, setState] = useState<{ data?: T; problem?: ProblemError }>({});
  const [version, setVersion] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the caller lists what `load` depends on
  useEffect(() => {
    let current = true;
    load().then(
      (data) => current && setState({ data }),
      (error: unknown) => current && setState({ problem: toProblemError(error) }),
    );
    return () => {
      current = false;
    };
  }, [...deps, version]);
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  return { data: state.data, problem: state.problem, reload };
}

/**
 * Runs one user action at a time (a send, a vote), keeping whether it runs and why it last failed, until an action
 * anywhere on the page succeeds or the API key changes: then the error is history and its box goes.
 */
export function useAction() {
  const { freshSince, tick, freshStart } = useFailureClock();
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<{ problem: ProblemError; at: number }>();
  const run = useCallback(
    async (action: () => Promise<void>) => {
      setPending(true);
      setFailure(undefined);
      try {
        await action();
        freshStart();
      } catch (error) {
        setFailure({ problem: toProblemError(error), at: tick() });
      } finally {
        setPending(false);
      }
    },
    [tick, freshStart],
  );
  const problem = failure !== undefined && failure.at > freshSince ? failure.problem : undefined;
  return { pending, problem, run };
}

export type MessageArrival = Extract<ServerEvent, { type: "message.received" }> & { seq: number };

/** A relay's answer about a sent message, numbered like arrivals: the message's thread reloads on it. */
export type DeliveryUpdate = Extract<ServerEvent, { type: "message.delivery" }> & { seq: number };

/** What the clients' retries did: each retry, and each call that went through after some. */
export type RetryActivity = Exclude<ServerEvent, { type: "message.received" | "message.delivery" }>;

/**
 * Listens to the server's events: each message that arrives (from the Inbox API's live events), each retry of a client and each call
 * that went through after retries.
 */
export function useServerEvents() {
  const [live, setLive] = useState(false);
  const [arrivals, setArrivals] = useState<MessageArrival[]>([]);
  const [deliveries, setDeliveries] = useState<DeliveryUpdate[]>([]);
  const [activity, setActivity] = useState<RetryActivity[]>([]);
  useEffect(() => {
    let seq = 0;
    const source = new EventSource("/api/events");
    source.onopen = () => setLive(true);
    // EventSource reconnects by itself; until then, say so.
    source.onerror = () => setLive(false);
    source.onmessage = (message: MessageEvent<string>) => {
      const event = JSON.parse(message.data) as ServerEvent;
      if (event.type === "message.received") {
        seq += 1;
        const arrival = { ...event, seq };
        setArrivals((list) => [...list, arrival].slice(-100));
      } else if (event.type === "message.delivery") {
        seq += 1;
        const update = { ...event, seq };
        setDeliveries((list) => [...list, update].slice(-100));
      } else {
        setActivity((list) => [event, ...list].slice(0, 10));
      }
    };
    return () => source.close();
  }, []);
  return { live, arrivals, deliveries, activity };
}
