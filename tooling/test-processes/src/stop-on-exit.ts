/** Servers this process started and did not stop yet, each with how to stop it at once. */
const running = new Set<() => void>();
let exitHookInstalled = false;

/**
 * Runs `stop` when this process exits while it is still registered: a test run that ends without stopping a server
 * does not leave it running. `stop` must be synchronous, as nothing asynchronous runs in the `exit` event.
 */
export function stopOnExit(stop: () => void): void {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once("exit", () => {
      for (const each of running) {
        each();
      }
    });
  }
  running.add(stop);
}

/** Takes `stop` back: the server was stopped, or is being stopped, another way. */
export function forgetOnExit(stop: () => void): void {
  running.delete(stop);
}
