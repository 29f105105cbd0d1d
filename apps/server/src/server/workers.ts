import { AddressListRule } from "../inbox/address-lists.ts";
import { HostedDomains } from "../inbox/hosted-domains.ts";
import { OutboundMailWorker } from "../inbox/outbound-mail-worker.ts";
import { ScheduledDraftWorker } from "../inbox/scheduled-draft-worker.ts";
import type { DeliverAttempt } from "../inbox/webhooks/attempt-delivery.ts";
import { WebhookDeliveryWorker } from "../inbox/webhooks/delivery-worker.ts";
import type { OutcomeSimulator } from "../mail/outbound/outcome-simulator.ts";
import { createRelayTransport } from "../mail/outbound/relay-transport.ts";
import type { Instruments } from "../metrics/instruments.ts";
import { DEFAULT_SMTP_RELAY_CLAIM_MS } from "../options/defaults.ts";
import type { DeliveryOutbox } from "../storage/inbox/delivery-outbox.ts";
import type { ServerParts } from "./server-parts.ts";
import type { StartContext } from "./start-context.ts";

/** The background workers of a server. */
export interface Workers {
  delivery: WebhookDeliveryWorker;
  /** Made only when there is a relay or simulated outcomes: without either, no mail leaves the server. */
  mail: OutboundMailWorker | undefined;
  /** Sends scheduled drafts when their time comes. */
  drafts: ScheduledDraftWorker;
}

/** What the workers work with that test control may wrap or supply. */
export interface WorkerDependencies {
  /** The webhook outbox the delivery worker claims from and records attempts in. */
  outbox: DeliveryOutbox;
  /** Sends one webhook attempt. */
  deliver: DeliverAttempt;
  /** Simulated outcomes for outside recipients, instead of the relay's. */
  simulator: OutcomeSimulator | undefined;
}

/** Makes the workers, recorded in `parts` to be stopped; they start once the services listen. */
export function createWorkers(parts: ServerParts, dependencies: WorkerDependencies): Workers {
  const { context } = parts;
  // Counted when metrics are on.
  const instruments = parts.metrics?.instruments;
  const workers = {
    delivery: createDeliveryWorker(context, dependencies, instruments),
    mail: createMailWorker(context, dependencies.simulator, instruments),
    drafts: createDraftWorker(context, dependencies.simulator, instruments),
  };
  parts.workers = workers;
  return workers;
}

function createDeliveryWorker(
  { config, storage, clock, instanceId }: StartContext,
  { outbox, deliver }: WorkerDependencies,
  instruments: Instruments | undefined,
): WebhookDeliveryWorker {
  return new WebhookDeliveryWorker({
    outbox,
    instanceId,
    soleInstance: storage.kind === "sqlite",
    claimMs: config.webhookClaimMs,
    leaseMs: config.claimLeaseMs,
    clock,
    claimClock: config.clock,
    logger: config.logger,
    retryDelaysMs: config.webhookRetryDelaysMs,
    allowPrivateDestinations: config.allowPrivateWebhooks,
    deliver,
    instruments,
  });
}

function createMailWorker(
  { config, storage, clock, instanceId }: StartContext,
  simulator: OutcomeSimulator | undefined,
  instruments: Instruments | undefined,
): OutboundMailWorker | undefined {
  const { relay } = config;
  if (!relay && !simulator) {
    return undefined;
  }
  return new OutboundMailWorker({
    queue: storage.mailQueue,
    sends: storage.sends,
    relay: relay
      ? createRelayTransport({
          url: relay.url,
          insecure: relay.insecure,
          dkim: relay.dkim,
          heloName: relay.heloName,
          maxConnections: 5,
          timeoutMs: relay.timeoutMs,
        })
      : null,
    simulator,
    instanceId,
    soleInstance: storage.kind === "sqlite",
    clock,
    claimClock: config.clock,
    logger: config.logger,
    retryDelaysMs: config.mailRetryDelaysMs,
    claimMs: relay?.claimMs ?? DEFAULT_SMTP_RELAY_CLAIM_MS,
    leaseMs: config.claimLeaseMs,
    concurrency: 10,
    instruments,
  });
}

/** How long one scheduled draft's send may hold its claim: a send is one transaction, well within this. */
const DRAFT_SEND_CLAIM_MS = 60_000;

function createDraftWorker(
  { config, storage, clock, instanceId }: StartContext,
  simulator: OutcomeSimulator | undefined,
  instruments: Instruments | undefined,
): ScheduledDraftWorker {
  const domains = new HostedDomains(config.domains);
  return new ScheduledDraftWorker({
    queue: storage.draftQueue,
    sending: {
      drafts: storage.drafts,
      inboxes: storage.inboxes,
      // The send path of Send Message, with the same limits and outcomes as the inbox service's.
      send: {
        sends: storage.sends,
        clock,
        sendsPerDay: config.limits.inboxSendsPerDay,
        relayConfigured: config.relay !== null,
        simulator,
        isHostedAddress: (address) => domains.hostsAddress(address),
        addressLists: new AddressListRule(storage.lists),
      },
    },
    instanceId,
    soleInstance: storage.kind === "sqlite",
    clock,
    claimClock: config.clock,
    logger: config.logger,
    claimMs: DRAFT_SEND_CLAIM_MS,
    leaseMs: config.claimLeaseMs,
    concurrency: 5,
    instruments,
  });
}
