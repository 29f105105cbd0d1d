import type { DeliveryOutbox } from "../../storage/inbox/delivery-outbox.ts";

/**
 * The webhook outbox as the delivery worker uses it, calling `onRecorded` once each attempt's outcome has committed,
 * so that waits for a delivery's status look at once.
 */
export function notifyingOutbox(outbox: DeliveryOutbox, onRecorded: () => void): DeliveryOutbox {
  return {
    claimDue: (claim) => outbox.claimDue(claim),
    renewClaims: (claimant, seqs, untilMs) => outbox.renewClaims(claimant, seqs, untilMs),
    releaseClaims: (claimant) => outbox.releaseClaims(claimant),
    releaseAllClaims: (nowMs) => outbox.releaseAllClaims(nowMs),
    nextDueAt: (nowMs) => outbox.nextDueAt(nowMs),
    depth: (dueMs) => outbox.depth(dueMs),
    async recordAttempt(seq, claimant, state) {
      await outbox.recordAttempt(seq, claimant, state);
      onRecorded();
    },
  };
}
