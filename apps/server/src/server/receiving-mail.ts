import { AddressListRule } from "../inbox/address-lists.ts";
import { compileAddressRule } from "../inbox/address-rule.ts";
import { receiveMessage } from "../inbox/receive-message.ts";
import type { RunningSmtpListener } from "../mail/inbound/smtp-listener.ts";
import { startSmtpListener } from "../mail/inbound/smtp-listener.ts";
import type { SmtpMeter } from "../metrics/instruments.ts";
import type { ResolvedOptions } from "../options.ts";
import { loadSpecBundle } from "../spec/spec-bundle.ts";
import type { StartContext } from "./start-context.ts";

/**
 * Listens for mail over SMTP to the hosted domains: a message to a hosted address is received into its inbox. Counted
 * with `meter` when metrics are on.
 */
export function startReceivingMail(
  { config, storage, clock }: StartContext,
  smtp: NonNullable<ResolvedOptions["smtp"]>,
  meter?: SmtpMeter,
): Promise<RunningSmtpListener> {
  const isValidAddress = compileAddressRule(loadSpecBundle("inbox"));
  return startSmtpListener({
    ...smtp,
    domains: config.domains,
    isHosted: async (address) =>
      (await storage.sends.inSendTransaction((tx) => tx.findInboxesByAddress([address]))).length > 0,
    receive: (mail) =>
      receiveMessage(
        {
          sends: storage.sends,
          clock,
          isValidAddress,
          defaultDomain: config.domains[0] ?? "pigeonhole.test",
          addressLists: new AddressListRule(storage.lists),
        },
        mail,
      ),
    logger: config.logger,
    meter,
  });
}
