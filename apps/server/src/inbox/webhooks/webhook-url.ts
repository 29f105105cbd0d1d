/** Why a webhook's `url` cannot be delivered to. */
export type WebhookUrlProblem =
  /** It is no URL a client could request: a host that is no name or IP address, a port out of range... */
  | { code: "INVALID_URL"; reason: string }
  /** A URL, but of another scheme than http or https. */
  | { code: "INVALID_VALUE"; reason: string };

/**
 * Reads a webhook's `url` as the delivery will (the WHATWG URL parser, as `fetch` and Node's `http` do): the spec's
 * `format: uri` lets through addresses such as `http://256.1.1.1/` or `http://[::1]:99999/` that no request can be
 * made to, and those are refused here rather than stored.
 */
export function webhookUrlProblem(raw: string): WebhookUrlProblem | null {
  const url = URL.parse(raw);
  if (url === null) {
    return { code: "INVALID_URL", reason: "is not a URL a delivery can be made to (check its host and port)" };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    return { code: "INVALID_VALUE", reason: "must be an http or https URL" };
  }
  if (url.hostname === "") {
    return { code: "INVALID_URL", reason: "names no host" };
  }
  return null;
}
