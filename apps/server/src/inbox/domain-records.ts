import type { DomainRecord } from "@pigeonhole/inbox-types";
import type { DkimKey } from "../mail/outbound/relay-transport.ts";
import { dkimRecord } from "./dkim-record.ts";

/** The preference of the one `MX` record: any value works when it is the only one. */
const MX_PRIORITY = 10;

/**
 * The DNS records to publish for a hosted domain: mail for it goes to the domain's own host (`MX`; point it at the
 * host that reaches the server's SMTP port if that is another), mail from it is sent by that host (SPF, softfail
 * elsewhere so that a relay not yet listed does not bounce mail), signed by the server's DKIM key when it signs for
 * the domain, and DMARC starts by only reporting (`p=none`), the usual first step.
 */
export function domainRecords(domain: string, dkim?: DkimKey): DomainRecord[] {
  const signing = dkim && dkim.domain.toLowerCase() === domain ? dkimRecord(dkim) : undefined;
  return [
    { type: "MX", name: domain, value: domain, priority: MX_PRIORITY },
    { type: "TXT", name: domain, value: "v=spf1 mx ~all" },
    ...(signing ? [signing] : []),
    { type: "TXT", name: `_dmarc.${domain}`, value: "v=DMARC1; p=none" },
  ];
}
