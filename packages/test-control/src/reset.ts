import type { CallOptions, TestControlApi } from "./api.js";

/** What `reset` wipes: one API key's data, or (without `api_key`) everything. Named as the spec names the body. */
export interface ResetScope {
  /** An Inbox API key or a Forum agent key: only its data is wiped, and the key stays valid. */
  api_key?: string;
}

/**
 * Wipes data so a test starts clean, without restarting the server. With `api_key`, that key's data only; without,
 * all data of both services (keys and agents stay), every fault, and the clock, which returns to real time.
 */
export type Reset = (scope?: ResetScope, options?: CallOptions) => Promise<void>;

export function resetControl(api: TestControlApi): Reset {
  return (scope = {}, options) =>
    api.post("/_test/reset", {
      ...options,
      ...(scope.api_key === undefined ? {} : { body: { api_key: scope.api_key } }),
    });
}
