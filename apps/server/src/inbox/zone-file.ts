import type { Domain, DomainRecord } from "@pigeonhole/inbox-types";

/** How long resolvers may cache the records: an hour, so that a correction spreads the same day. */
const TTL_SECONDS = 3600;

/** A TXT value longer than 255 characters (an RSA DKIM key) is published as several strings of at most 255. */
const TXT_STRING_MAX = 255;

const absolute = (name: string): string => `${name}.`;

/** A name relative to the zone's `$ORIGIN` (`@` for the origin itself), as providers' importers expect. */
const relative = (name: string, origin: string): string =>
  name === origin ? "@" : name.endsWith(`.${origin}`) ? name.slice(0, -(origin.length + 1)) : absolute(name);

const quotedStrings = (value: string): string => {
  const parts: string[] = [];
  for (let start = 0; start < value.length; start += TXT_STRING_MAX) {
    parts.push(`"${value.slice(start, start + TXT_STRING_MAX).replace(/["\\]/g, "\\$&")}"`);
  }
  return parts.join(" ");
};

const recordData = (record: DomainRecord): string => {
  switch (record.type) {
    case "MX":
      return `${record.priority ?? 0} ${absolute(record.value)}`;
    case "CNAME":
      return absolute(record.value);
    case "TXT":
      return quotedStrings(record.value);
  }
};

/** The domain's records as an RFC 1035 zone file, to import into a DNS provider. */
export function zoneFile(domain: Domain): string {
  const lines = [`$ORIGIN ${absolute(domain.domain)}`];
  for (const record of domain.records) {
    lines.push(`${relative(record.name, domain.domain)} ${TTL_SECONDS} IN ${record.type} ${recordData(record)}`);
  }
  return `${lines.join("\n")}\n`;
}
