// Webhook URL rules (contract: "Webhook subscription"): https in production; in every deployed stack,
// hosts that resolve to loopback, private, link-local, shared or metadata addresses are refused so a
// subscription can never make the platform call into its own network. Only the local runtime allows them.
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import type { FieldProblem } from '../failures.ts';

const blocked = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT (shared)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, including the 169.254.169.254 metadata service
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  blocked.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['fc00::', 7], // unique local (includes fd00:ec2::254, the IPv6 metadata service)
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const) {
  blocked.addSubnet(network, prefix, 'ipv6');
}

/** Is the address one a deployed stack must never call? IPv4-mapped IPv6 is checked as IPv4. */
export function isForbiddenAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return blocked.check(mapped, 'ipv4');
  const family = isIP(address);
  if (family === 0) return true;
  return blocked.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

export interface UrlPolicy {
  requireHttps: boolean;
  allowPrivateAddresses: boolean;
}

export type Resolver = (hostname: string) => Promise<string[]>;

/** The system's resolver (getaddrinfo, as Node's own connections use), every address of the host. */
export const systemResolver: Resolver = async (hostname) => (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

/** Problems with a webhook URL under a policy, as validation details on `path`; empty when acceptable. */
export async function checkWebhookUrl(
  url: string,
  policy: UrlPolicy,
  path = 'url',
  resolve: Resolver = systemResolver,
): Promise<FieldProblem[]> {
  const parsed = new URL(url);
  if (policy.requireHttps && parsed.protocol !== 'https:') return [{ path, message: 'Must use https in production' }];
  if (parsed.username || parsed.password) return [{ path, message: 'Must not contain credentials; sign with the secret instead' }];
  if (policy.allowPrivateAddresses) return [];
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : await resolve(host);
  } catch {
    return [{ path, message: `Host ${host} does not resolve; use a publicly resolvable host name` }];
  }
  if (addresses.length === 0 || addresses.some(isForbiddenAddress)) {
    return [{ path, message: `Host ${host} resolves to a loopback, private, link-local or metadata address, which webhooks may not target` }];
  }
  return [];
}
