import { randomBytes } from "node:crypto";
import type { RelayOutcome } from "./relay-transport.ts";

/** An outcome the server produces for an outside recipient instead of asking a relay. */
export type SimulatedOutcome = "delivered" | "bounce" | "delay" | "complaint";

/** Answers the outcome to simulate for an outside recipient (a lowercase address), or undefined to send it as usual. */
export type SimulateOutcome = (recipient: string) => SimulatedOutcome | undefined;

/** The reserved domain of the magic addresses: mail to it never leaves the server. */
export const SIMULATOR_DOMAIN = "simulator.pigeonhole.test";

const MAGIC_LOCAL_PARTS: Readonly<Record<string, SimulatedOutcome>> = {
  delivered: "delivered",
  bounce: "bounce",
  delay: "delay",
  complaint: "complaint",
};

/** The outcome a magic address names; any other address of the reserved domain is delivered, others are not simulated. */
export function magicAddressOutcome(address: string): SimulatedOutcome | undefined {
  const at = address.lastIndexOf("@");
  if (at < 1 || address.slice(at + 1).toLowerCase() !== SIMULATOR_DOMAIN) {
    return undefined;
  }
  return MAGIC_LOCAL_PARTS[address.slice(0, at).toLowerCase()] ?? "delivered";
}

/** A queue id as Postfix prints it in its acceptance. */
const queueId = () => randomBytes(5).toString("hex").toUpperCase();

/**
 * What a relay would have answered for a simulated recipient, worded as Postfix words it. A delay fails the first
 * attempt only: the next one, after the retry delay, is accepted.
 */
export function simulatedReply(outcome: SimulatedOutcome, recipient: string, firstAttempt: boolean): RelayOutcome {
  if (outcome === "bounce") {
    return {
      kind: "permanent",
      reply: `550 5.1.1 <${recipient}>: Recipient address rejected: User unknown in virtual mailbox table`,
    };
  }
  if (outcome === "delay" && firstAttempt) {
    return {
      kind: "temporary",
      reply: `450 4.2.0 <${recipient}>: Recipient address rejected: Greylisted, please try again later`,
    };
  }
  return { kind: "accepted", reply: `250 2.0.0 Ok: queued as ${queueId()}` };
}
