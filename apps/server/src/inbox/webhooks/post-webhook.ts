import type { LookupAddress } from "node:dns";
import { lookup } from "node:dns/promises";
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import type { LookupFunction } from "node:net";
import { isIP } from "node:net";
import { enforceDestinationPolicy } from "./destination-policy.ts";

export interface WebhookPost {
  /** The receiver's address, `http:` or `https:`. */
  url: string;
  headers: Readonly<Record<string, string>>;
  body: string;
  /** Deliver to loopback and private-network addresses too. */
  allowPrivate: boolean;
  /** How long the receiver has, from resolving its name to the end of its answer. */
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface WebhookAnswer {
  status: number;
}

/** Every address a host name resolves to. */
export type ResolveHost = (hostname: string) => Promise<readonly LookupAddress[]>;

const resolveWithDns: ResolveHost = (hostname) => lookup(hostname, { all: true });

/** Receivers' answers are read up to this size, then the connection is closed: only the status matters. */
const MAX_DRAINED_BYTES = 64 * 1024;

/**
 * POSTs one webhook delivery. The host name is resolved once, every address is checked against the private-network
 * policy, and the connection is made to those checked addresses only: a DNS server answering differently to a
 * second question cannot send the request elsewhere. TLS still verifies the certificate against the host name.
 * Redirects are not followed: a 3xx is the receiver's answer.
 */
export async function postWebhook(post: WebhookPost, resolve: ResolveHost = resolveWithDns): Promise<WebhookAnswer> {
  const url = new URL(post.url);
  const send = url.protocol === "https:" ? httpsRequest : url.protocol === "http:" ? httpRequest : undefined;
  if (!send) {
    throw new Error(`Webhook URLs use http: or https:, not ${url.protocol}`);
  }
  const deadline = AbortSignal.timeout(post.timeoutMs);
  const stop = post.signal ? AbortSignal.any([post.signal, deadline]) : deadline;
  const stopReason = (): Error => {
    if (stop.reason === deadline.reason) {
      return new Error(`${url.host} did not answer within ${post.timeoutMs} ms.`);
    }
    return stop.reason instanceof Error ? stop.reason : new Error("The delivery was aborted.", { cause: stop.reason });
  };

  const hostname = url.hostname.replace(/^\[|\]$/g, "");
  const addresses = isIP(hostname)
    ? [{ address: hostname, family: isIP(hostname) }]
    : await untilStopped(resolveAddresses(resolve, hostname), stop, stopReason);
  enforceDestinationPolicy(
    url.host,
    addresses.map((entry) => entry.address),
    post.allowPrivate,
  );

  return new Promise<WebhookAnswer>((settle, fail) => {
    const outgoing = send(url, {
      method: "POST",
      headers: { ...post.headers, "content-length": String(Buffer.byteLength(post.body)) },
      // A connection of its own: a pooled socket would have been opened for an address checked under another policy.
      agent: false,
      lookup: pinnedLookup(addresses),
    });
    const onStop = () => outgoing.destroy(stopReason());
    const cleanUp = () => stop.removeEventListener("abort", onStop);
    if (stop.aborted) {
      onStop();
    } else {
      stop.addEventListener("abort", onStop, { once: true });
    }

    let answer: WebhookAnswer | undefined;
    outgoing.on("error", (error) => {
      cleanUp();
      if (answer) {
        settle(answer);
      } else {
        fail(stop.aborted ? stopReason() : new Error(`Could not deliver to ${url.host}`, { cause: error }));
      }
    });
    outgoing.on("response", (incoming) => {
      // The answer is known; reading the rest is a courtesy to the receiver, bounded in size and by the deadline.
      const known = { status: incoming.statusCode ?? 0 };
      answer = known;
      let drained = 0;
      const finish = () => {
        cleanUp();
        outgoing.destroy();
        settle(known);
      };
      incoming.on("data", (chunk: Buffer) => {
        drained += chunk.length;
        if (drained > MAX_DRAINED_BYTES) {
          finish();
        }
      });
      incoming.on("end", finish);
      incoming.on("error", finish);
      incoming.on("close", finish);
    });
    outgoing.end(post.body);
  });
}

async function resolveAddresses(resolve: ResolveHost, hostname: string): Promise<LookupAddress[]> {
  let answers: readonly LookupAddress[];
  try {
    answers = await resolve(hostname);
  } catch (error) {
    throw new Error(`Could not resolve ${hostname}`, { cause: error });
  }
  if (answers.length === 0) {
    throw new Error(`${hostname} resolved to no address.`);
  }
  return answers.map(({ address }) => {
    const family = isIP(address);
    if (family === 0) {
      throw new Error(`${hostname} resolved to ${address}, which is not an IP address.`);
    }
    return { address, family };
  });
}

/** Hands the socket the addresses that were checked, instead of asking DNS again. */
function pinnedLookup(addresses: readonly LookupAddress[]): LookupFunction {
  return (hostname, options, callback) => {
    const family = options.family === "IPv4" ? 4 : options.family === "IPv6" ? 6 : options.family;
    const candidates = family === 4 || family === 6 ? addresses.filter((entry) => entry.family === family) : addresses;
    const [first] = candidates;
    // Asynchronous like a real lookup, so the socket's listeners are in place before it answers.
    process.nextTick(() => {
      if (!first) {
        callback(new Error(`${hostname} has no IPv${family} address.`), []);
      } else if (options.all) {
        callback(null, [...candidates]);
      } else {
        callback(null, first.address, first.family);
      }
    });
  };
}

/** Settles like `promise`, unless `signal` aborts first: then rejects with `reason()`. */
function untilStopped<T>(promise: Promise<T>, signal: AbortSignal, reason: () => Error): Promise<T> {
  if (signal.aborted) {
    return Promise.reject(reason());
  }
  return new Promise<T>((settle, fail) => {
    const onAbort = () => fail(reason());
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(settle, fail).finally(() => signal.removeEventListener("abort", onAbort));
  });
}
