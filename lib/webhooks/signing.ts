// Standard Webhooks signatures (https://www.standardwebhooks.com): `webhook-signature: v1,<base64 HMAC-SHA256 of
// "{id}.{timestamp}.{body}">`, keyed with the base64-decoded part of the `whsec_` secret. Several signatures are
// separated by spaces: during the 24 hours after a rotation, the old secret signs too.
import { createHmac, randomBytes } from "node:crypto";

const PREFIX = "whsec_";

/** A new secret: `whsec_` + base64 of 32 random bytes. */
export const newSecret = () => PREFIX + randomBytes(32).toString("base64");

export function sign(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, "base64");
  return `v1,${createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest("base64")}`;
}

/** The three headers of one attempt; `timestamp` is the attempt's own time in whole seconds. */
export function signatureHeaders(
  secrets: string[],
  id: string,
  timestamp: number,
  body: string,
): Record<string, string> {
  return {
    "webhook-id": id,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": secrets.map((secret) => sign(secret, id, timestamp, body)).join(" "),
  };
}
