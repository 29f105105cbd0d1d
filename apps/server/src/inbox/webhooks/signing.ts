import { createHmac, randomBytes } from "node:crypto";

const SECRET_PREFIX = "whsec_";

/** A new signing secret: `whsec_` and 24 random bytes in base64 (the HMAC key is those bytes). */
export const generateWebhookSecret = (): string => `${SECRET_PREFIX}${randomBytes(24).toString("base64")}`;

/**
 * The Standard Webhooks signature of one delivery attempt: `v1,` and the base64 HMAC-SHA256 of
 * `{id}.{timestamp}.{body}`, keyed with the base64-decoded part of the secret after `whsec_`.
 */
export function signDelivery(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), "base64");
  const signature = createHmac("sha256", key).update(`${id}.${timestampSeconds}.${body}`).digest("base64");
  return `v1,${signature}`;
}

/** The headers of a signed delivery, under both the Standard Webhooks and the Svix names. */
export function deliveryHeaders(
  secret: string,
  id: string,
  timestampSeconds: number,
  body: string,
): Record<string, string> {
  const signature = signDelivery(secret, id, timestampSeconds, body);
  const timestamp = String(timestampSeconds);
  return {
    "webhook-id": id,
    "webhook-timestamp": timestamp,
    "webhook-signature": signature,
    "svix-id": id,
    "svix-timestamp": timestamp,
    "svix-signature": signature,
  };
}
