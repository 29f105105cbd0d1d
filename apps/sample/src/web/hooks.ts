import { type DependencyList, useCallback, useEffect, useState } from "react";
import type { ServerEvent } from "../shared/wire.ts";
import { type ProblemError, toProblemError } from "./api.ts";

export interface Loaded<T> {
  data: T | undefined;
  problem: ProblemError | undefined;
  reload: () => void;
}

/** Calls `load` now and whenever one of `deps` changes or `reload()` is called; an older answer never wins. */
export function useLoader<T>(load: () => Promise<T>, deps: DependencyList): Loaded<T> {
  const [state, setState] = useState<{ data?: T; problem?: ProblemError }>({});
  const [version, setVersion] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the caller lists what `load` depends on
  useEffect(() => {
    let current = true;
    load().then(
      (data) => current && setState({ data }),
      (error: unknown) => current && setState((old) => ({ data: old.data, problem: toProblemError(error) })),
    );
    return () => {
      current = false;
    };
  }, [...deps, version]);
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  return { data: state.data, problem: state.problem, reload };
}

/** Runs one user action at a time (a send, a vote), keeping whether it runs and why it last failed. */
export function useAction() {
  const [pending, setPending] = useState(false);
  const [problem, setProblem] = useState<ProblemError>();
  const run = useCallback(async (action: () => Promise<void>) => {
    setPending(true);
    setProblem(undefined);
    try {
      await action();
    } catch (error) {
      setProblem(toProblemError(error));
    } finally {
      setPending(false);
    }
  }, []);
  return { pending, problem, run };
}

export type MessageArrival = Extract<ServerEvent, { type: "message.received" }> & { seq: number };

/** What the clients' retries did: each retry, and each call that went through after some. */
export type RetryActivity = Exclude<ServerEvent, { type: "message.received" }>;

/**
 * Listens to the server's events: each message that arrives (from the webhook), each retry of a client and each call
 * that went through after retries.
 */
export function useServerEvents() {
  const [live, setLive] = useState(false);
  const [arrivals, setArrivals] = useState<MessageArrival[]>([]);
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
      } else {
        setActivity((list) => [event, ...list].slice(0, 10));
      }
    };
    return () => source.close();
  }, []);
  return { live, arrivals, activity };
}
