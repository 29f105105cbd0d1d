import type { HostedDomains } from "./hosted-domains.ts";
import { InboxProblem } from "./inbox-errors.ts";
import type { InboxHandlers } from "./inbox-handlers.ts";
import { zoneFile } from "./zone-file.ts";

export interface DomainHandlerDependencies {
  domains: HostedDomains;
}

type DomainHandlers = Pick<InboxHandlers, "getDomainZoneFile" | "createDomain" | "verifyDomain">;

const domainNotFound = (domainId: string) =>
  new InboxProblem(404, "NOT_FOUND", `Domain '${domainId}' was not found.`, { field: "domain_id" });

/**
 * AgentMail's domain operations beyond List and Get. The hosted domains are the operator's configuration: the zone
 * file shows what to publish; creating a hosted domain answers it unchanged and any other is refused; verifying a
 * hosted domain has nothing to do.
 */
export function createDomainHandlers(deps: DomainHandlerDependencies): DomainHandlers {
  const { domains } = deps;
  return {
    async getDomainZoneFile({ path }) {
      const domain = domains.find(path.domain_id);
      if (!domain) {
        throw domainNotFound(path.domain_id);
      }
      return {
        status: 200,
        body: new TextEncoder().encode(zoneFile(domain)),
        contentType: "text/plain; charset=utf-8",
      };
    },

    async createDomain({ body }) {
      const domain = domains.find(body.domain);
      if (!domain) {
        throw new InboxProblem(
          400,
          "DOMAINS_MANAGED_BY_OPERATOR",
          `Domains are managed by the server's operator (--domain); '${body.domain}' cannot be created over the API.`,
          { field: "domain", hint: `Hosted domains: ${domains.all.map((hosted) => hosted.domain).join(", ")}.` },
        );
      }
      return { status: 200, body: domain };
    },

    async verifyDomain({ path }) {
      if (!domains.find(path.domain_id)) {
        throw domainNotFound(path.domain_id);
      }
      return { status: 204, body: undefined };
    },
  };
}
