import { createPublicKey } from "node:crypto";
import type { DomainRecord } from "@pigeonhole/inbox-types";
import type { DkimKey } from "../mail/outbound/relay-transport.ts";

/** An Ed25519 public key in SPKI DER is a fixed 12-byte header followed by the 32-byte key DKIM publishes. */
const ED25519_KEY_BYTES = 32;

/**
 * The `TXT` record that publishes the public half of the server's DKIM key at `<selector>._domainkey.<domain>`
 * (RFC 6376: an RSA key as SPKI DER, an Ed25519 key as its raw 32 bytes, RFC 8463), or undefined for a key of
 * another type, which no verifier would accept anyway.
 */
export function dkimRecord(key: DkimKey): DomainRecord | undefined {
  const publicKey = createPublicKey(key.privateKey);
  const der = publicKey.export({ type: "spki", format: "der" });
  const name = `${key.selector}._domainkey.${key.domain.toLowerCase()}`;
  switch (publicKey.asymmetricKeyType) {
    case "rsa":
      return { type: "TXT", name, value: `v=DKIM1; k=rsa; p=${der.toString("base64")}` };
    case "ed25519":
      return {
        type: "TXT",
        name,
        value: `v=DKIM1; k=ed25519; p=${der.subarray(der.length - ED25519_KEY_BYTES).toString("base64")}`,
      };
    default:
      return undefined;
  }
}
