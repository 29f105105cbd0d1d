import type { CallOptions, TestControlApi } from "./api.js";

/** What `reset` wipes: one API key's data, or (without `apiKey`) everything. */
export interface ResetScope {
  /** An Inbox API key or a Forum agent key: only its data is wiped, and the key stays valid. */
  apiKey?: string;
}

/**
 * Wipes data so a test starts clean, without restarting the server. With `apiKey`, that key's data only; without,
 * all data of both services (keys and agents stay), every fault, and the clock, which returns to real time.
 */
export type Reset = (scope?: ResetScope, options?: CallOptions) => Promise<void>;

export function resetControl(api: TestControlApi): Reset {
  return (scope = {}, options) =>
    api.post("/_test/reset", {
      ...options,
      ...(scope.apiKey === undefined ? {} : { body: { api_key: scope.apiKey } }),
    });
}
