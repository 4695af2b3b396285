// Where webhooks may go (decisions.md, "Integrations (beyond)"): https on a public address. Checked when an endpoint
// is saved (the URL's form, and its host when that is an address) and again at every delivery, on the addresses its
// name resolves to then: the request goes to the address that was checked (pinned), so a name that resolves to 10.x,
// or is re-pointed between the check and the connection, is never reached. WEBHOOKS_ALLOW_PRIVATE=true lifts both
// rules (development and tests: receivers on loopback, over http).
import { lookup as dnsLookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";
import { logRefusal } from "@/lib/core/log";

/**
 * Ranges that are not public unicast addresses: private, loopback, link-local (cloud metadata), CGNAT, reserved, and
 * every other block of IANA's special-purpose address registries (IPv4 and IPv6) and the multicast ranges; no webhook
 * receiver lives in any of them. One list per family: a BlockList matches IPv4 addresses against IPv4-mapped IPv6 rules, so one list holding
 * ::ffff:0:0/96 would refuse every IPv4 address.
 */
const NOT_PUBLIC_V4 = new BlockList();
const NOT_PUBLIC_V6 = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8], // "this network"
  ["10.0.0.0", 8], // private
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local, cloud metadata (169.254.169.254)
  ["172.16.0.0", 12], // private
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // documentation
  ["192.31.196.0", 24], // AS112 DNS anycast
  ["192.52.193.0", 24], // AMT relay anycast
  ["192.88.99.0", 24], // 6to4 relay anycast
  ["192.168.0.0", 16], // private
  ["192.175.48.0", 24], // AS112 direct delegation
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // documentation
  ["203.0.113.0", 24], // documentation
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast
] as const)
  NOT_PUBLIC_V4.addSubnet(network, prefix, "ipv4");
for (const [network, prefix] of [
  ["::", 96], // unspecified, loopback, IPv4-compatible
  ["::ffff:0:0", 96], // IPv4-mapped: the IPv4 address inside would decide, so none is taken
  ["64:ff9b::", 96], // NAT64
  ["64:ff9b:1::", 48], // local-use NAT64
  ["100::", 64], // discard
  ["100:0:0:1::", 64], // dummy prefix (RFC 9780)
  ["2001::", 23], // IETF protocol assignments (Teredo included)
  ["2001:db8::", 32], // documentation
  ["2002::", 16], // 6to4: embeds an IPv4 address
  ["2620:4f:8000::", 48], // AS112 direct delegation
  ["3fff::", 20], // documentation (RFC 9637)
  ["5f00::", 16], // SRv6 segment identifiers (RFC 9602)
  ["fc00::", 7], // unique local
  ["fe80::", 10], // link-local
  ["fec0::", 10], // site-local (deprecated)
  ["ff00::", 8], // multicast
] as const)
  NOT_PUBLIC_V6.addSubnet(network, prefix, "ipv6");
/** Public IPv6 unicast is all within 2000::/3. */
const GLOBAL_UNICAST_V6 = new BlockList();
GLOBAL_UNICAST_V6.addSubnet("2000::", 3, "ipv6");

/** Whether an IP address (v4 or v6 text, an IPv6 zone allowed) is a public unicast address. */
export function isPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, "");
  if (bare.includes("%")) return false; // a zone id: link-local by nature
  const family = isIP(bare);
  if (family === 4) return !NOT_PUBLIC_V4.check(bare, "ipv4");
  if (family === 6) return GLOBAL_UNICAST_V6.check(bare, "ipv6") && !NOT_PUBLIC_V6.check(bare, "ipv6");
  return false;
}

export const allowPrivateTargets = () => process.env.WEBHOOKS_ALLOW_PRIVATE === "true";

/** Names that always mean this machine or a local network. */
const LOCAL_NAMES = /(^|\.)(localhost|local|internal|localdomain|home\.arpa)$/i;

/**
 * Why a URL may not be a webhook target, or null when it may: checked when an endpoint is saved. A host name is
 * only checked for its form here; what it resolves to is checked at delivery (resolveTarget).
 */
export function urlProblem(raw: string, allowPrivate = allowPrivateTargets()): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "Must be a valid URL.";
  }
  if (url.protocol !== "https:" && !(allowPrivate && url.protocol === "http:")) return "Must be an https URL.";
  if (url.username || url.password) return "Must not contain a user name or password.";
  if (url.hash) return "Must not contain a fragment (#…).";
  if (allowPrivate) return null;
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (isIP(host)) return isPublicAddress(host) ? null : "Must be a public address, not a private or local one.";
  if (LOCAL_NAMES.test(host.replace(/\.$/, "")) || !host.includes("."))
    return "Must be a public host name, not a local one.";
  return null;
}

export type Resolver = (host: string) => Promise<{ address: string; family: number }[]>;

const systemResolver: Resolver = (host) => dnsLookup(host, { all: true, verbatim: true });

/** Where a delivery connects: the address checked (pinned for the connection). */
export interface Target {
  url: URL;
  address: string;
  family: 4 | 6;
}

export class RefusedTarget extends Error {}

/**
 * Resolves a webhook URL for one delivery and checks every address the name has: one private address refuses the
 * whole name (a resolver could hand out either). The caller connects to `address` and no other. The refusal does not
 * name the address (the error is shown to the firm's Admins: it would tell them what internal names resolve to); the
 * server log does.
 */
export async function resolveTarget(
  raw: string,
  {
    allowPrivate = allowPrivateTargets(),
    resolve = systemResolver,
  }: { allowPrivate?: boolean; resolve?: Resolver } = {},
): Promise<Target> {
  const problem = urlProblem(raw, allowPrivate);
  if (problem) throw new RefusedTarget(`Refused target: ${problem}`);
  const url = new URL(raw);
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const literal = isIP(host);
  const addresses = literal ? [{ address: host, family: literal }] : await resolve(host);
  if (!addresses.length) throw new RefusedTarget(`Refused target: ${host} has no address.`);
  if (!allowPrivate) {
    const bad = addresses.find((a) => !isPublicAddress(a.address));
    if (bad) {
      logRefusal(`Webhook delivery refused: ${host} resolves to ${bad.address}, which is not a public address.`);
      throw new RefusedTarget(`Refused target: ${host} resolves to a non-public address.`);
    }
  }
  const chosen = addresses[0];
  return { url, address: chosen.address, family: chosen.family === 6 ? 6 : 4 };
}
