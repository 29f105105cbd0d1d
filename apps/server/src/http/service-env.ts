/**
 * The variables the service middlewares hand on along a request. `caller` is set only once the request is known to
 * come from a valid key.
 */
export interface ServiceEnv<Caller> {
  Variables: {
    requestId: string;
    /** The address the request comes from (see client-address.ts). */
    clientAddress: string;
    /** The origin the client reached, as a trusted proxy names it; unset otherwise (see forwarded-origin.ts). */
    forwardedOrigin?: string;
    caller: Caller;
    /** The headers every answer to the request carries (see answer.ts). */
    answerHeaders?: Record<string, string>;
    /** The answer `answer` built, which carries them already. */
    answered?: Response;
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
