import type { Domain } from "@pigeonhole/inbox-types";
import type { DkimKey } from "../mail/outbound/relay-transport.ts";
import { DEFAULT_DOMAIN } from "./addresses.ts";
import { domainRecords } from "./domain-records.ts";

/** The domain part of an address, in lowercase. */
const domainOf = (address: string): string => address.slice(address.lastIndexOf("@") + 1).toLowerCase();

/**
 * The domains the server hosts (`ServerOptions.domains`): the only domains inboxes are created in and send from, and
 * the only ones whose addresses are delivered to locally. A domain is hosted exactly, never through a parent.
 */
export class HostedDomains {
  readonly #domains: readonly Domain[];

  /** `names` in lowercase, the default first; `dkim` adds its key's record to the domain it signs for (domain-records.ts). */
  constructor(names: readonly string[], dkim?: DkimKey) {
    const hosted = names.length > 0 ? names : [DEFAULT_DOMAIN];
    this.#domains = hosted.map((name) => ({
      domain_id: name,
      domain: name,
      status: "VERIFIED",
      records: domainRecords(name, dkim),
    }));
  }

  /** Where Create Inbox puts an inbox that names no domain. */
  get defaultDomain(): string {
    return this.#domains[0]?.domain ?? DEFAULT_DOMAIN;
  }

  /** The hosted domains as the API answers them, the default first. */
  get all(): readonly Domain[] {
    return this.#domains;
  }

  find(domainId: string): Domain | undefined {
    return this.#domains.find((domain) => domain.domain_id === domainId.toLowerCase());
  }

  hosts(domain: string): boolean {
    return this.find(domain) !== undefined;
  }

  /** Whether the address is in a hosted domain (not whether an inbox has it). */
  hostsAddress(address: string): boolean {
    return this.hosts(domainOf(address));
  }
}
