import type {
  CreateFaultRequest,
  CreateMailFaultRequest,
  CreateRequestFaultRequest,
  CreateWebhookFaultRequest,
  Fault,
  MailFault,
  RequestFault,
  WebhookFault,
} from "@pigeonhole/test-control-types";
import type { CallOptions, TestControlApi } from "./api.js";

/** The server's faults: each applies to the next `times` matches, then stays listed, spent, until removed. */
export interface FaultControl {
  /**
   * Arms a fault and resolves to it, typed by its `target`: `request` (an API call), `webhook` (a delivery
   * attempt) or `mail` (an outbound mail). The next `times` (default 1) matches go wrong as `action` says; `hits`
   * and `remaining` count them.
   */
  add(rule: CreateRequestFaultRequest, options?: CallOptions): Promise<RequestFault>;
  add(rule: CreateWebhookFaultRequest, options?: CallOptions): Promise<WebhookFault>;
  add(rule: CreateMailFaultRequest, options?: CallOptions): Promise<MailFault>;
  add(rule: CreateFaultRequest, options?: CallOptions): Promise<Fault>;
  /** One fault with its counts; a `NotFoundError` once it is removed. */
  get(faultId: string, options?: CallOptions): Promise<Fault>;
  /** Every fault, oldest first (the order they are tried in), spent ones included. */
  list(options?: CallOptions): Promise<Fault[]>;
  /** Removes one fault, armed or spent; a `NotFoundError` when there is no such fault. */
  remove(faultId: string, options?: CallOptions): Promise<void>;
  /** Removes every fault. */
  clear(options?: CallOptions): Promise<void>;
}

export function faultControl(api: TestControlApi): FaultControl {
  const path = (fault_id: string) => ({ params: { path: { fault_id } } });
  return {
    // The server answers a fault of the rule's own target: the overloads say so, the spec cannot.
    add: ((rule: CreateFaultRequest, options?: CallOptions) =>
      api.post("/_test/faults", { ...options, body: rule })) as FaultControl["add"],
    get: (faultId, options) => api.get("/_test/faults/{fault_id}", { ...options, ...path(faultId) }),
    list: async (options) => (await api.get("/_test/faults", { ...options })).faults,
    remove: (faultId, options) => api.delete("/_test/faults/{fault_id}", { ...options, ...path(faultId) }),
    clear: (options) => api.delete("/_test/faults", { ...options }),
  };
}
