/**
 * The variables the service middlewares hand on along a request. `identity` is what the key resolved to, before
 * anything refuses the request; `caller` is set only once the request is known to come from a valid key.
 */
export interface ServiceEnv<Caller> {
  Variables: {
    requestId: string;
    /** The address the request comes from (see client-address.ts). */
    clientAddress: string;
    identity: Identity<Caller>;
    caller: Caller;
    body: unknown;
    /** Set when the request was a WebSocket upgrade that was accepted: the connection logs its own line. */
    upgraded?: true;
    /** Set when a test-control fault closed the connection without an answer: no status was ever sent. */
    dropped?: true;
  };
}

/** Who a request comes from: its caller (null when its key is missing or unknown), and whether it sent a key. */
export interface Identity<Caller> {
  caller: Caller | null;
  keySent: boolean;
}
