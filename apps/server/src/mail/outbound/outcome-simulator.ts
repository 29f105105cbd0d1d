import type { SendStore } from "../../storage/inbox/send-store.ts";
import type { SimulatedOutcome, SimulateOutcome } from "./simulated-outcome.ts";

/** What a send decided for one outside recipient: an outcome to simulate, or the relay (null). */
type Plan = SimulatedOutcome | null;

const keyOf = (messageId: string, address: string) => `${messageId}\n${address}`;

/**
 * Asks the hook once per outside recipient of a send (a fault it answers from is used up then) and keeps the answer
 * until the recipient's outcome is final, so that the outbound worker simulates what the send decided, however many
 * attempts it takes. The answers live in memory: after a restart, or on another instance of the database, a waiting
 * recipient is asked about again, which for a magic address gives the same answer.
 */
export class OutcomeSimulator {
  readonly #simulate: SimulateOutcome;
  readonly #plans = new Map<string, Plan>();

  constructor(simulate: SimulateOutcome) {
    this.#simulate = simulate;
  }

  /**
   * At the send, for an outside recipient: the outcome to simulate, or undefined. Asked again for the same recipient
   * of the same message (the send's transaction ran again), it answers what it answered first.
   */
  plan(messageId: string, address: string, relayConfigured: boolean): SimulatedOutcome | undefined {
    const key = keyOf(messageId, address);
    const planned = this.#plans.get(key);
    if (planned !== undefined) {
      return planned ?? undefined;
    }
    const outcome = this.#simulate(address);
    // A recipient left to the relay is remembered too, so that a fault added before its attempt does not catch it;
    // without a relay it is kept (`captured`) and never reaches the worker.
    if (outcome !== undefined || relayConfigured) {
      this.#plans.set(key, outcome ?? null);
    }
    return outcome;
  }

  /** `sends`, forgetting what was planned for `messageId` when its transaction does not commit. */
  forgettingFailedSends(sends: SendStore, messageId: string): SendStore {
    return {
      inSendTransaction: (work) =>
        sends.inSendTransaction(work).catch((error: unknown) => {
          this.discard(messageId);
          throw error;
        }),
    };
  }

  /** Forgets what was planned for a send whose transaction did not commit. */
  discard(messageId: string): void {
    const prefix = `${messageId}\n`;
    for (const key of this.#plans.keys()) {
      if (key.startsWith(prefix)) {
        this.#plans.delete(key);
      }
    }
  }

  /** At an attempt: the outcome to simulate for this recipient, or undefined to relay it. */
  outcomeFor(messageId: string, address: string): SimulatedOutcome | undefined {
    const planned = this.#plans.get(keyOf(messageId, address));
    return planned === undefined ? this.#simulate(address) : (planned ?? undefined);
  }

  /** The recipient's outcome is final: nothing more to remember. */
  settle(messageId: string, address: string): void {
    this.#plans.delete(keyOf(messageId, address));
  }

  /** Recipients whose outcome is not final yet (for tests and diagnostics). */
  get pending(): number {
    return this.#plans.size;
  }
}
